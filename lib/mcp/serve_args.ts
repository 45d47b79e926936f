/** The transport flags every server entry accepts: `--http [HOST:]PORT` and `--stateless`. */
import { isLoopback, type ListenAddress, parseListenAddress } from "./http_guard.ts";
import { type HttpLimits, parseHttpLimits } from "./http_limits.ts";

/** A command line the server cannot run with; the message says what to change. */
export class UsageError extends Error {}

/** The env var holding the bearer token HTTP mode requires (and which a non-loopback bind must have). */
export const TOKEN_ENV = "MCP_HTTP_TOKEN";
/** Set to 1 (or true) for stateless HTTP, as `--stateless` does. */
export const STATELESS_ENV = "MCP_HTTP_STATELESS";
/** Seconds a session may sit without a request or an open stream before it is closed; 0 never. */
export const SESSION_IDLE_ENV = "MCP_HTTP_SESSION_IDLE_S";

/** The transport chosen, and the arguments left for the server itself. */
export interface ServeArgs {
  /** Undefined for stdio. */
  http?:
    & { listen: ListenAddress; token?: string; stateless: boolean; sessionIdleMs?: number }
    & Partial<HttpLimits>;
  rest: string[];
}

/** Takes the transport flags out of `args`; throws UsageError on a bad address or an unsafe bind. */
export function parseServeArgs(args: readonly string[], env: Record<string, string | undefined>): ServeArgs {
  const rest: string[] = [];
  let address: string | undefined;
  let stateless = /^(1|true|yes)$/i.test(env[STATELESS_ENV] ?? "");
  let statelessFlag = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--http") {
      address = args[++i];
      if (address === undefined) throw new UsageError("--http needs [HOST:]PORT, such as --http 8808");
    } else if (arg.startsWith("--http=")) address = arg.slice("--http=".length);
    else if (arg === "--stateless") stateless = statelessFlag = true;
    else rest.push(arg);
  }
  if (address === undefined) {
    if (statelessFlag) throw new UsageError("--stateless applies to HTTP mode only: add --http [HOST:]PORT");
    return { rest };
  }
  let listen;
  try {
    listen = parseListenAddress(address);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const token = env[TOKEN_ENV] || undefined;
  if (!isLoopback(listen.hostname) && token === undefined) {
    throw new UsageError(
      `Refusing to listen on "${listen.hostname}" without a token: set ${TOKEN_ENV} (clients then send ` +
        `"Authorization: Bearer <token>"), or listen on 127.0.0.1`,
    );
  }
  const idle = env[SESSION_IDLE_ENV];
  if (idle !== undefined && !/^\d+$/.test(idle)) {
    throw new UsageError(`${SESSION_IDLE_ENV} must be a whole number of seconds, not "${idle}"`);
  }
  const sessionIdleMs = idle === undefined ? undefined : Number(idle) * 1000;
  return {
    http: {
      listen,
      token,
      stateless,
      ...(sessionIdleMs === undefined ? {} : { sessionIdleMs }),
      ...limits(env),
    },
    rest,
  };
}

// --- HTTP resource limits (http_limits.ts): MCP_HTTP_MAX_SESSIONS, MCP_HTTP_*_TIMEOUT_S, ... ---

/** The limits set in the env; a bad value is a usage error. */
function limits(env: Record<string, string | undefined>): Partial<HttpLimits> {
  try {
    return parseHttpLimits(env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
