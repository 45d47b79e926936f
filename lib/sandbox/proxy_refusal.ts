/**
 * What a refused connection says: the proxy's 403 to the job's client, and the one line the shell adds to
 * that job's result so the agent can tell a sandbox refusal from a network failure and tell the user what to
 * allow. Plain functions; no I/O.
 * @module
 */
import type { RefusalReason } from "./proxy_policy.ts";

/** The setting through which the user allows more domains. */
export const DOMAINS_SETTING = "MCP_SANDBOX_DOMAINS";

const WHY: Record<RefusalReason, string> = {
  "not_listed": "is not in the allowed domains",
  "private_address": "resolves only to loopback or private addresses",
  "denied_by_user": "was declined by the user",
};

/** The proxy's answer to a refused request: status 403 and one sentence naming the host and the remedy. */
export function refusalResponse(host: string, reason: RefusalReason): string {
  const body = `continue-mcp sandbox: "${host}" ${
    WHY[reason]
  }; the user can allow it with ${DOMAINS_SETTING}\n`;
  return "HTTP/1.1 403 Forbidden\r\n" +
    "Content-Type: text/plain; charset=utf-8\r\n" +
    "X-Proxy-Error: blocked-by-allowlist\r\n" +
    `Content-Length: ${body.length}\r\n` +
    "Connection: close\r\n\r\n" + body;
}

/** A short error answer (400, 502, 503) for what is not a sandbox refusal. */
export function errorResponse(status: 400 | 502 | 503, message: string): string {
  const text = { 400: "Bad Request", 502: "Bad Gateway", 503: "Service Unavailable" }[status];
  const body = `continue-mcp sandbox proxy: ${message}\n`;
  const bytes = new TextEncoder().encode(body).length;
  return `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
    `Content-Length: ${bytes}\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * The line added to a job's result when its connections were refused, or null when none were; at most a
 * few hosts are named (a job that tried hundreds must not flood the result).
 */
export function refusalNote(hosts: readonly string[], max = 3): string | null {
  if (hosts.length === 0) return null;
  const named = hosts.slice(0, max).map((host) => `"${host}"`).join(", ");
  const more = hosts.length > max ? ` and ${hosts.length - max} more` : "";
  const what = hosts.length === 1 ? "a connection" : "connections";
  return `[sandbox] refused ${what} to ${named}${more} (not in the allowed domains); ` +
    `the user can allow domains with ${DOMAINS_SETTING}`;
}
