/**
 * The proxy's side of HTTP/1.x: reads a request head from a client, bounded in size, and tells a CONNECT
 * (https, git over https: a tunnel to `host:port`) from a plain-http request in absolute form, which is sent
 * on as one request with `Connection: close`. Everything else is refused with 400.
 * @module
 */
import { normalizeHost } from "./proxy_domains.ts";

/** What a client asked the proxy for. */
export type ProxyRequest =
  /** A tunnel: bytes flow both ways once the proxy says 200. */
  | { kind: "connect"; host: string; port: number }
  /** A plain-http request: `head` is what goes to the origin (origin-form target, hop headers dropped). */
  | { kind: "forward"; host: string; port: number; head: string };

/** A request the proxy cannot serve; `message` goes back to the client with status 400. */
export class BadProxyRequest extends Error {
  override readonly name = "BadProxyRequest";
}

const END_OF_HEAD = new Uint8Array([13, 10, 13, 10]);

/**
 * Reads up to the end of the request head (at most `maxBytes`); returns its text and the bytes after it
 * (the start of a body or of tunnel data). Null when the client closed before sending a whole head.
 */
export async function readHead(
  conn: Deno.Conn,
  maxBytes: number,
): Promise<{ head: string; rest: Uint8Array } | null> {
  const buffer = new Uint8Array(maxBytes);
  let length = 0;
  while (length < maxBytes) {
    const read = await conn.read(buffer.subarray(length));
    if (read === null) return null;
    const from = Math.max(0, length - 3);
    length += read;
    const end = indexOf(buffer.subarray(0, length), END_OF_HEAD, from);
    if (end >= 0) {
      return {
        head: new TextDecoder("latin1").decode(buffer.subarray(0, end)),
        rest: buffer.slice(end + 4, length),
      };
    }
  }
  throw new BadProxyRequest(`request head longer than ${maxBytes} bytes`);
}

/** Parses a request head read by {@link readHead}. Throws {@link BadProxyRequest}. */
export function parseRequest(head: string): ProxyRequest {
  const [requestLine, ...headerLines] = head.split("\r\n");
  const match = /^([A-Z]+) (\S+) HTTP\/(1\.[01])$/.exec(requestLine);
  if (!match) throw new BadProxyRequest("not an HTTP/1.x request");
  const [, method, target, version] = match;
  if (method === "CONNECT") return { kind: "connect", ...parseAuthority(target) };
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new BadProxyRequest("a proxy request needs an absolute http:// URL or CONNECT");
  }
  if (url.protocol !== "http:") {
    throw new BadProxyRequest(`"${url.protocol}" requests go through CONNECT, not as a plain request`);
  }
  const host = normalizeHost(url.hostname);
  if (!host) throw new BadProxyRequest(`"${url.hostname}" is not a host name`);
  const port = url.port === "" ? 80 : Number(url.port);
  const headers = forwardHeaders(headerLines, url.host);
  const path = `${url.pathname}${url.search}`;
  return { kind: "forward", host, port, head: `${method} ${path} HTTP/${version}\r\n${headers}\r\n` };
}

function parseAuthority(target: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:\[\]]+):(\d{1,5})$/.exec(target);
  const host = match && normalizeHost(match[1]);
  const port = match ? Number(match[2]) : 0;
  if (!host || port < 1 || port > 65535) {
    throw new BadProxyRequest(`CONNECT needs host:port, not "${target.slice(0, 100)}"`);
  }
  return { host, port };
}

/** Hop-by-hop headers are the proxy's, not the origin's (RFC 9110 7.6.1); credentials for us never leave. */
const HOP_HEADERS = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "upgrade",
]);

function forwardHeaders(lines: string[], urlHost: string): string {
  const named = new Set<string>();
  for (const line of lines) {
    const [name, value] = splitHeader(line);
    if (name === "connection") {
      for (const token of value.split(",")) named.add(token.trim().toLowerCase());
    }
  }
  const kept: string[] = [];
  let hasHost = false;
  for (const line of lines) {
    if (/^[ \t]/.test(line)) throw new BadProxyRequest("folded header lines are not accepted");
    const [name] = splitHeader(line);
    if (!name) throw new BadProxyRequest("a header line without a name");
    if (HOP_HEADERS.has(name) || named.has(name)) continue;
    if (name === "host") {
      // The origin learns the host from the URL that was checked, never from a header that could differ.
      if (hasHost) continue;
      hasHost = true;
      kept.push(`Host: ${urlHost}`);
      continue;
    }
    kept.push(line);
  }
  if (!hasHost) kept.unshift(`Host: ${urlHost}`);
  kept.push("Connection: close");
  return kept.map((line) => `${line}\r\n`).join("");
}

function splitHeader(line: string): [string, string] {
  const colon = line.indexOf(":");
  if (colon <= 0) return ["", ""];
  const name = line.slice(0, colon);
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) return ["", ""];
  return [name.toLowerCase(), line.slice(colon + 1).trim()];
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
