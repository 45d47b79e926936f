/**
 * The resource limits of HTTP mode: how many sessions, how long a session may sit unused or idle, how long a
 * request's headers and body may take to arrive, and how large a body may be. Each has a sensible default
 * and an `MCP_HTTP_*` env var; tests pass short values directly.
 * @module
 */

/** The limits one HTTP server applies. */
export interface HttpLimits {
  /** Sessions open at once; a new initialize first evicts the longest-idle session without an open stream. */
  maxSessions: number;
  /** A session that never went past initialize (no request since, no stream) is closed after this; 0 never. */
  unusedSessionMs: number;
  /** A session with no open stream and no request for this long is closed; 0 never. */
  sessionIdleMs: number;
  /** A connection must deliver a request's headers this soon after it opened or its last answer; 0 never. */
  headersTimeoutMs: number;
  /** A POST body must arrive whole this soon after its headers; 0 never. */
  bodyTimeoutMs: number;
  /** Larger POST bodies are refused with 413 (the SDK's own cap is 4 MiB too). */
  maxBodyBytes: number;
  /** Connections open at once; one past it is closed as soon as it is accepted. */
  maxConnections: number;
}

/**
 * 32 sessions: each holds a server instance (the gateway's spawns its downstream servers); one user's
 * clients need a handful. 60 s is ample for a client between initialize and its next request. Ten idle
 * minutes: a connected client holds its GET stream open, so only a client that vanished without DELETE waits
 * this out. Headers and body arrive in milliseconds from a live client on loopback. 256 connections: a
 * client keeps one or two per session; each held connection costs ~100 KB.
 */
export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  maxSessions: 32,
  unusedSessionMs: 60_000,
  sessionIdleMs: 10 * 60_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 30_000,
  maxBodyBytes: 4 * 1024 * 1024,
  maxConnections: 256,
};

/** The env var of each limit; durations are seconds (decimals allowed), `0` turns a timeout off. */
export const LIMIT_ENV = {
  maxSessions: "MCP_HTTP_MAX_SESSIONS",
  unusedSessionMs: "MCP_HTTP_UNUSED_SESSION_S",
  headersTimeoutMs: "MCP_HTTP_HEADERS_TIMEOUT_S",
  bodyTimeoutMs: "MCP_HTTP_BODY_TIMEOUT_S",
  maxBodyBytes: "MCP_HTTP_MAX_BODY_BYTES",
  maxConnections: "MCP_HTTP_MAX_CONNECTIONS",
} as const satisfies Partial<Record<keyof HttpLimits, string>>;

/**
 * The limits set in `env` (only those; the rest keep their defaults). Throws an Error naming the variable
 * when a value is not a number of the right kind. `MCP_HTTP_SESSION_IDLE_S` is read by serve_args.ts.
 */
export function parseHttpLimits(env: Record<string, string | undefined>): Partial<HttpLimits> {
  const limits: Partial<HttpLimits> = {};
  for (const [key, name] of Object.entries(LIMIT_ENV) as [keyof typeof LIMIT_ENV, string][]) {
    const text = env[name];
    if (text === undefined || text === "") continue;
    const isCount = key === "maxSessions" || key === "maxBodyBytes" || key === "maxConnections";
    if (isCount ? !/^[1-9]\d*$/.test(text) : !/^\d+(\.\d+)?$/.test(text)) {
      throw new Error(
        isCount
          ? `${name} must be a whole number above 0, not "${text}"`
          : `${name} must be a number of seconds (0 for no limit), not "${text}"`,
      );
    }
    limits[key] = isCount ? Number(text) : Math.round(Number(text) * 1000);
  }
  return limits;
}
