/** The transport flags every server entry accepts: `--http [HOST:]PORT`, `--stateless` and `--no-auth`. */
import { isLoopback, type ListenAddress, parseListenAddress } from "./http_guard.ts";
import { type HttpLimits, parseHttpLimits } from "./http_limits.ts";

/** A command line the server cannot run with; the message says what to change. */
export class UsageError extends Error {}

/** The env var holding the bearer token HTTP mode requires; unset, the per-user token file holds it. */
export const TOKEN_ENV = "MCP_HTTP_TOKEN";
/** Turns the token off, on a loopback address only: any local user or process can then use the server. */
export const NO_AUTH_FLAG = "--no-auth";
/** What every HTTP-mode variable starts with: read once at start, then removed so no child inherits them. */
export const HTTP_ENV_PREFIX = "MCP_HTTP_";
/** Set to 1 (or true) for stateless HTTP, as `--stateless` does. */
export const STATELESS_ENV = "MCP_HTTP_STATELESS";
/** Seconds a session may sit without a request or an open stream before it is closed; 0 never. */
export const SESSION_IDLE_ENV = "MCP_HTTP_SESSION_IDLE_S";

/** Where the bearer token comes from: `MCP_HTTP_TOKEN`, the per-user token file (http_token.ts), or nowhere. */
export type HttpAuth = { kind: "env"; token: string } | { kind: "file" } | { kind: "none" };

/** The transport chosen, and the arguments left for the server itself. */
export interface ServeArgs {
  /** Undefined for stdio. */
  http?:
    & { listen: ListenAddress; auth: HttpAuth; stateless: boolean; sessionIdleMs?: number }
    & Partial<HttpLimits>;
  rest: string[];
}

/** True for the variables of HTTP mode (`MCP_HTTP_TOKEN`...), which no child process may see. */
export function isHttpEnvName(name: string): boolean {
  // Case-insensitively: Windows environment names are.
  return name.toUpperCase().startsWith(HTTP_ENV_PREFIX);
}

/** Takes the transport flags out of `args`; throws UsageError on a bad address or an unsafe bind. */
export function parseServeArgs(args: readonly string[], env: Record<string, string | undefined>): ServeArgs {
  const rest: string[] = [];
  let address: string | undefined;
  let stateless = /^(1|true|yes)$/i.test(env[STATELESS_ENV] ?? "");
  let statelessFlag = false;
  let noAuth = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--http") {
      address = args[++i];
      if (address === undefined) throw new UsageError("--http needs [HOST:]PORT, such as --http 8808");
    } else if (arg.startsWith("--http=")) address = arg.slice("--http=".length);
    else if (arg === "--stateless") stateless = statelessFlag = true;
    else if (arg === NO_AUTH_FLAG) noAuth = true;
    else rest.push(arg);
  }
  if (address === undefined) {
    if (statelessFlag) throw new UsageError("--stateless applies to HTTP mode only: add --http [HOST:]PORT");
    if (noAuth) throw new UsageError(`${NO_AUTH_FLAG} applies to HTTP mode only: add --http [HOST:]PORT`);
    return { rest };
  }
  let listen;
  try {
    listen = parseListenAddress(address);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const auth = parseAuth(listen, noAuth, env[TOKEN_ENV] || undefined);
  const idle = env[SESSION_IDLE_ENV];
  if (idle !== undefined && !/^\d+$/.test(idle)) {
    throw new UsageError(`${SESSION_IDLE_ENV} must be a whole number of seconds, not "${idle}"`);
  }
  const sessionIdleMs = idle === undefined ? undefined : Number(idle) * 1000;
  return {
    http: {
      listen,
      auth,
      stateless,
      ...(sessionIdleMs === undefined ? {} : { sessionIdleMs }),
      ...limits(env),
    },
    rest,
  };
}

function parseAuth(listen: ListenAddress, noAuth: boolean, token: string | undefined): HttpAuth {
  if (token !== undefined && !/^[\x21-\x7e]+$/.test(token)) {
    throw new UsageError(
      `${TOKEN_ENV} must be visible ASCII characters without spaces: clients send it in a header`,
    );
  }
  if (!noAuth) return token === undefined ? { kind: "file" } : { kind: "env", token };
  if (!isLoopback(listen.hostname)) {
    throw new UsageError(
      `Refusing ${NO_AUTH_FLAG} on "${listen.hostname}": without a token anyone who reaches it runs tools as ` +
        "you; drop the flag or listen on 127.0.0.1",
    );
  }
  if (token !== undefined) {
    throw new UsageError(`${NO_AUTH_FLAG} and ${TOKEN_ENV} contradict each other: drop one`);
  }
  return { kind: "none" };
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
