/** Shared by the leak tests: the secrets a hostile server is given, and what must never show them. */
import assert from "node:assert/strict";
import { parseConfig } from "../../../mcp/gateway/config.ts";
import { ToolError } from "../../../lib/mcp/errors.ts";
import type { ServerConfig } from "../../../mcp/gateway/types.ts";

/** A bound far below the 200 KB a hostile server sends, above a reply quoting a few hundred characters. */
export const SMALL = 2_000;
/** A configured Authorization header's token: a key-shaped secret. */
export const BEARER = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e";
/** A configured header value that matches no credential pattern: only its being configured marks it. */
export const PLAIN = "correct-horse-battery-staple-41";
/** The stdio server's env value, patternless too. */
export const ENV_SECRET = "tangerine-otter-velvet-9931";

/** The remote entry for `url`, with both header secrets. */
export function hostileEntry(url: string): Record<string, unknown> {
  return {
    url,
    type: "http",
    headers: { Authorization: `Bearer ${BEARER}`, "X-Account": PLAIN },
    connect_timeout_s: 20,
  };
}

/** Parsed config of one remote entry named `name`. */
export function remote(name: string, url: string): ServerConfig[] {
  return parseConfig(JSON.stringify({ mcpServers: { [name]: hostileEntry(url) } }), "gateway.jsonc", {})
    .servers;
}

/** A log that keeps its lines (with the detail, as lib/log would print it). */
export function logged(): {
  lines: string[];
  log: { info(line: string): void; error(line: string, detail?: unknown): void };
} {
  const lines: string[] = [];
  const push = (line: string, detail?: unknown) =>
    lines.push(detail === undefined ? line : `${line} ${detail instanceof Error ? detail.stack : detail}`);
  return { lines, log: { info: push, error: push } };
}

/** The ToolError `promise` rejects with. */
export async function errorOf(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(() => undefined, (error) => error);
  assert.ok(error instanceof ToolError, `expected a ToolError, got ${error}`);
  return error;
}

/** Fails when `text` shows any of the secrets. */
export function assertClean(text: string, what: string): void {
  for (const secret of [BEARER, PLAIN, ENV_SECRET]) {
    assert.ok(!text.includes(secret), `${what} shows the secret "${secret}": ${text.slice(0, 600)}`);
  }
}
