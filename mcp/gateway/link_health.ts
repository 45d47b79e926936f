/**
 * A link's health: how a failure backs off (retry_policy.ts), how a revoked token marks it down, what
 * status() reports for each entry, and why a call is refused while it is down.
 * @module
 */
import { ToolError } from "../../lib/mcp/errors.ts";
import type { Connection } from "./connect.ts";
import { type Link, linkSecrets } from "./link.ts";
import type { NeedsAuthError } from "./oauth/needs_auth.ts";
import { boundedReason, failureText } from "./redact.ts";
import { breakerOpen, retryDelayMs, type RetryOptions } from "./retry_policy.ts";
import type { ServerConfig, ServerStatus } from "./types.ts";

/** One more failure in a row: the next try waits longer, and the breaker's note joins the reason. */
export function recordFailure(link: Link, retry: RetryOptions, now: number): void {
  link.failures++;
  link.retryAt = now + retryDelayMs(link.failures, retry);
  if (breakerOpen(link.failures, retry)) {
    link.reason = `${link.reason} (${link.failures} failures in a row; retried after a cool-down)`;
  }
}

/** A token revoked mid-session: the server is down until authorised again; the next call reconnects. */
export function recordLostAuth(link: Link, connection: Connection, error: NeedsAuthError): void {
  if (link.connection !== connection) return;
  link.connection = undefined;
  link.state = "down";
  link.reason = boundedReason(error.message, linkSecrets(link, connection));
  link.needsAuth = true;
  link.retryAt = 0;
  connection.close().catch(() => {});
}

/** The health of `config`, served by `link`, with `tools` of its tools in the catalog. */
export function linkStatus(config: ServerConfig, link: Link, tools: number): ServerStatus {
  const others = link.configs.filter((other) => other !== config).map((other) => other.name);
  return {
    name: config.name,
    state: link.state,
    ...(link.reason === undefined ? {} : { reason: link.reason }),
    // Kept while a retry is connecting: what the user must do has not changed until one succeeds.
    ...(link.needsAuth && link.state !== "up" ? { needsAuth: true } : {}),
    tools,
    ...(link.instructions === undefined ? {} : { instructions: link.instructions }),
    ...(others.length ? { sharedWith: others } : {}),
  };
}

/** The refusal of a call while the link backs off (no connect in progress), or undefined when it may try. */
export function backingOff(link: Link, qualifiedName: string, now: number): ToolError | undefined {
  const waitMs = link.retryAt - now;
  if (link.connecting || waitMs <= 0) return undefined;
  return new ToolError(
    "unavailable",
    `Cannot call "${qualifiedName}": MCP server "${
      link.configs[0].name
    }" is down (${link.reason}); retry in ${Math.ceil(waitMs / 1000)}s`,
  );
}

/** Logs each malformed tool the server listed (tool_list.ts), once per link: a re-list does not repeat it. */
export function logSkipped(
  link: Link,
  skipped: readonly string[],
  log: { error(message: string): void },
): void {
  for (const reason of skipped) {
    if (link.skipsLogged.has(reason)) continue;
    link.skipsLogged.add(reason);
    log.error(
      failureText(`MCP server "${link.configs[0].name}": ${reason}`, linkSecrets(link, link.connection)),
    );
  }
}
