/**
 * Who may talk to a server in HTTP mode: the listen address (`[HOST:]PORT`), DNS-rebinding protection
 * (Host and Origin headers) and the bearer token. Pure functions, no I/O.
 * @module
 */

/** Where the server listens. */
export interface ListenAddress {
  /** As given to Deno.serve: `127.0.0.1`, `::1`, `0.0.0.0`, a name. */
  hostname: string;
  /** 0 picks a free port. */
  port: number;
}

/** Loopback unless a host is named: a server is reachable from the network only when asked to be. */
const DEFAULT_HOSTNAME = "127.0.0.1";

/** Parses `PORT`, `HOST:PORT` or `[IPv6]:PORT`; throws with a sentence the user can act on. */
export function parseListenAddress(text: string): ListenAddress {
  const match = /^(?:\[([^\]]+)\]:|([^:]+):)?(\d{1,5})$/.exec(text.trim());
  const port = Number(match?.[3]);
  if (!match || port > 65_535) {
    throw new Error(`Cannot listen on "${text}": expected PORT or HOST:PORT, such as 8808 or 127.0.0.1:8808`);
  }
  return { hostname: match[1] ?? match[2] ?? DEFAULT_HOSTNAME, port };
}

/** Host names that always mean this machine (bracketed IPv6 as it appears in a Host header or URL). */
const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** True for `localhost`, `127.x.x.x` and `::1`: addresses no other machine can reach. */
export function isLoopback(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(name) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** What the request checks need to know about the running server. */
export interface GuardOptions {
  listen: ListenAddress;
  /** The port actually bound (differs from `listen.port` when that was 0). */
  port: number;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
}

/** A refused request: the status to answer with and why. */
export interface Refusal {
  status: 401 | 403;
  message: string;
}

/**
 * Refuses a request a browser page could have been tricked into sending (DNS rebinding: a foreign name
 * resolving to 127.0.0.1), or one without the token. Undefined when the request may pass.
 */
export async function refuseRequest(request: Request, options: GuardOptions): Promise<Refusal | undefined> {
  const host = request.headers.get("host") ?? "";
  const origin = request.headers.get("origin");
  if (isLoopback(options.listen.hostname)) {
    if (!isLoopbackHost(host, options.port)) {
      return { status: 403, message: `Host "${host}" is not this loopback server` };
    }
    if (origin !== null && !isLoopbackOrigin(origin)) {
      return { status: 403, message: `Origin "${origin}" is not a loopback origin` };
    }
  } else if (origin !== null && !isLoopbackOrigin(origin) && !sameHost(origin, host)) {
    // Reachable under names we cannot list, so the Host is not checked; the token guards the rest.
    return { status: 403, message: `Origin "${origin}" is neither loopback nor this server` };
  }
  if (options.token !== undefined && !await hasBearer(request.headers.get("authorization"), options.token)) {
    return { status: 401, message: "Missing or wrong bearer token" };
  }
  return undefined;
}

/** `localhost:8808`, `127.0.0.1:8808`, `[::1]:8808` for the bound port (no port only for port 80). */
function isLoopbackHost(host: string, port: number): boolean {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
  if (!match || !isLoopback(match[1])) return false;
  return Number(match[2] ?? 80) === port;
}

/** A page served from this machine, on any port (the MCP Inspector's UI, say). */
function isLoopbackOrigin(origin: string): boolean {
  const url = parseUrl(origin);
  return url !== undefined && (url.protocol === "http:" || url.protocol === "https:") &&
    isLoopback(url.hostname);
}

function sameHost(origin: string, host: string): boolean {
  return parseUrl(origin)?.host === host.toLowerCase();
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * `Bearer <token>` with the scheme in any case and any spaces around it (RFC 7235). The token may be any
 * visible ASCII (a superset of token68), as MCP_HTTP_TOKEN and the token file are checked to be.
 */
const BEARER = /^[ \t]*bearer[ \t]+([\x21-\x7e]+)[ \t]*$/i;

/**
 * Whether `header` carries `token`. Compares the SHA-256 digests of both in constant time, so neither where
 * the first difference lies nor the token's length shows in the time taken.
 */
export async function hasBearer(header: string | null, token: string): Promise<boolean> {
  const given = BEARER.exec(header ?? "")?.[1] ?? "";
  const [a, b] = await Promise.all([digest(given), digest(token)]);
  let difference = given === "" ? 1 : 0;
  for (let i = 0; i < b.length; i++) difference |= a[i] ^ b[i];
  return difference === 0;
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}
