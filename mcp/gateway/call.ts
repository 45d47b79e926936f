/** One downstream tools/call with a time limit, cancelled downstream on timeout or abort. */
import { ToolError } from "../../lib/mcp/errors.ts";
import type { ProgressUpdate } from "../../lib/mcp/tool.ts";
import { type CallToolResult, CallToolResultSchema, ErrorCode, McpError } from "../../lib/mcp/sdk.ts";
import type { Client } from "../../lib/mcp/sdk_client.ts";
import { TOO_LARGE_CODE } from "../../lib/mcp/child_transport.ts";
import { DROPPED_CODE } from "./dropped_streams.ts";

/** How much later than the call ceiling the SDK's own request timer is set: it must never fire first. */
const SDK_TIMER_SLACK_MS = 60_000;

/** Which call, for error messages, and its limits. */
export interface CallTarget {
  server: string;
  tool: string;
  /** Inactivity limit: each downstream progress notification restarts it. */
  limitMs: number;
  /** Hard ceiling on the whole call, progress or not. */
  ceilingMs: number;
  signal?: AbortSignal;
  /** When set, downstream progress is requested and each notification handed here, in order. */
  onProgress?: (update: ProgressUpdate) => void;
  /** How the server ended the connection, once it did (a stdio child: connect.ts). */
  ended?(): string | undefined;
  /** Makes a downstream error message showable: an excerpt, secrets redacted (redact.ts failureText). */
  shape(message: string): string;
}

/**
 * Calls `target.tool` and returns the result exactly as the server sent it (no output-schema check, which
 * the SDK's callTool would add). A timeout becomes ToolError("timeout"); the caller's abort rethrows as is.
 */
export async function callDownstream(
  client: Client,
  args: Record<string, unknown>,
  target: CallTarget,
): Promise<CallToolResult> {
  const { server, tool, signal, onProgress } = target;
  const limitMs = Math.min(target.limitMs, target.ceilingMs);
  const controller = new AbortController();
  const forward = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", forward, { once: true });
  if (signal?.aborted) forward();
  // Our own timers, not the SDK's: a server may itself answer -32001 (the SDK's RequestTimeout code) or
  // -32000 (ConnectionClosed), which must read as its own error, not as our timeout or a dead server.
  let timedOut: "ceiling" | "quiet" | undefined;
  const expire = (which: "ceiling" | "quiet") => () => {
    timedOut ??= which;
    // Aborting the request's signal makes the SDK send notifications/cancelled downstream.
    controller.abort(which === "ceiling" ? "ran past the call ceiling" : `timed out after ${limitMs}ms`);
  };
  const ceiling = setTimeout(expire("ceiling"), target.ceilingMs);
  let quiet = setTimeout(expire("quiet"), limitMs);
  const progressed = (update: ProgressUpdate) => {
    clearTimeout(quiet);
    quiet = setTimeout(expire("quiet"), limitMs);
    onProgress?.(update);
  };
  const transport = client.transport;
  try {
    return await client.request(
      { method: "tools/call", params: { name: tool, arguments: args } },
      CallToolResultSchema,
      {
        signal: controller.signal,
        // The SDK's own timer never fires first: ours above decide.
        timeout: target.ceilingMs + SDK_TIMER_SLACK_MS,
        ...(onProgress ? { onprogress: progressed } : {}),
      },
    ) as CallToolResult;
  } catch (error) {
    const action = `Cannot call "${tool}" on MCP server "${server}"`;
    if (timedOut === "ceiling") {
      throw new ToolError(
        "timeout",
        `${action}: ran past the ${target.ceilingMs}ms ceiling and was cancelled; retry with narrower arguments`,
      );
    }
    if (timedOut === "quiet" && !signal?.aborted) {
      const without = onProgress ? " without progress" : "";
      throw new ToolError(
        "timeout",
        `${action}: timed out after ${limitMs}ms${without} and was cancelled; retry with narrower arguments or a larger timeout`,
      );
    }
    if (signal?.aborted) throw error;
    // The SDK drops its transport when the connection closes, before it fails the requests in flight.
    if (!transport || client.transport !== transport) {
      const how = target.ended?.();
      throw new ToolError(
        "unavailable",
        `${action}: the connection closed mid-call${
          how ? ` (the server ${how})` : ""
        }; the next call restarts it`,
      );
    }
    throw callError(error, action, target.shape);
  } finally {
    clearTimeout(ceiling);
    clearTimeout(quiet);
    signal?.removeEventListener("abort", forward);
  }
}

function callError(error: unknown, action: string, shape: (message: string) => string): ToolError {
  // A ToolError from below (a remote server that needs authorising) already names the server and the fix.
  if (error instanceof ToolError) return error;
  if (error instanceof McpError && error.code === DROPPED_CODE) {
    return new ToolError(
      "unavailable",
      `${action}: the connection dropped before the answer came; the tool may have run, check before retrying`,
    );
  }
  // The server's words (a JSON-RPC error, an HTTP error page): an excerpt, its secrets redacted.
  const message = shape(error instanceof Error ? error.message : String(error));
  if (error instanceof McpError && error.code === TOO_LARGE_CODE) {
    // The transport's own words (child_transport.ts), not the server's.
    const why = message.replace(/^MCP error -?\d+: /, "");
    return new ToolError("too_large", `${action}: ${why}; ask the tool for less`);
  }
  if (error instanceof McpError && error.code === ErrorCode.InvalidParams) {
    return new ToolError("invalid_argument", `${action}: ${message}`);
  }
  return new ToolError("internal", `${action}: ${message}`);
}
