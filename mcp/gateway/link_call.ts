/** One call routed to a link's connection: its time limits, its tracking as a call in flight, redaction. */
import type { ProgressUpdate } from "../../lib/mcp/tool.ts";
import type { CallToolResult, RequestId } from "../../lib/mcp/sdk.ts";
import { callDownstream } from "./call.ts";
import type { Route } from "./catalog.ts";
import type { Connection } from "./connect.ts";
import { type Link, linkSecrets, trackCall } from "./link.ts";
import { recordLostAuth } from "./link_health.ts";
import { NeedsAuthError } from "./oauth/needs_auth.ts";
import { failureText, redactData } from "./redact.ts";

/** No call runs longer than this, whatever the config says. */
export const CALL_CEILING_MS = 10 * 60_000;

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the entry's callTimeoutMs (still capped by {@link CALL_CEILING_MS}). */
  timeoutMs?: number;
  /** Requests downstream progress and receives each notification, in order, before the result. */
  onProgress?: (update: ProgressUpdate) => void;
  /** The upstream request this call serves: what the server's questions and logs meanwhile relate to. */
  origin?: RequestId;
}

/** Calls `route`'s tool on `connection` (its link's, up); returns the result with the link's secrets redacted. */
export async function callOnLink(
  route: Route<Link>,
  connection: Connection,
  args: Record<string, unknown>,
  options: CallOptions & { ceilingMs: number },
): Promise<CallToolResult> {
  const { config, link, tool } = route;
  const secrets = linkSecrets(link, connection);
  const own = config.toolTimeoutsMs && Object.hasOwn(config.toolTimeoutsMs, tool.name)
    ? config.toolTimeoutsMs[tool.name]
    : undefined;
  const result = await trackCall(
    link,
    options.origin,
    callDownstream(connection.client, args, {
      server: config.name,
      tool: tool.name,
      limitMs: options.timeoutMs ?? own ?? config.callTimeoutMs,
      ceilingMs: options.ceilingMs,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      shape: (message) => failureText(message, secrets),
      ...(connection.ended ? { ended: connection.ended } : {}),
    }),
  ).catch((error) => {
    if (error instanceof NeedsAuthError) recordLostAuth(link, connection, error);
    throw error;
  });
  link.failures = 0;
  // A server may echo what the gateway gave it (a header, an env value, a token) into its result.
  return redactData(result, linkSecrets(link, connection));
}
