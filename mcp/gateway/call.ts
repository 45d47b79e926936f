/** One downstream tools/call with a time limit, cancelled downstream on timeout or abort. */
import { ToolError } from "../../lib/mcp/errors.ts";
import type { ProgressUpdate } from "../../lib/mcp/tool.ts";
import { type CallToolResult, CallToolResultSchema, ErrorCode, McpError } from "../../lib/mcp/sdk.ts";
import type { Client } from "../../lib/mcp/sdk_client.ts";
import { TOO_LARGE_CODE } from "../../lib/mcp/child_transport.ts";
import { DROPPED_CODE } from "./dropped_streams.ts";

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
  let ceilingHit = false;
  // Aborting the request's signal makes the SDK send notifications/cancelled downstream.
  const ceiling = setTimeout(() => {
    ceilingHit = true;
    controller.abort();
  }, target.ceilingMs);
  try {
    return await client.request(
      { method: "tools/call", params: { name: tool, arguments: args } },
      CallToolResultSchema,
      {
        signal: controller.signal,
        // The SDK's inactivity timer: on expiry it sends notifications/cancelled downstream.
        timeout: limitMs,
        ...(onProgress ? { onprogress: onProgress, resetTimeoutOnProgress: true } : {}),
      },
    ) as CallToolResult;
  } catch (error) {
    const action = `Cannot call "${tool}" on MCP server "${server}"`;
    if (ceilingHit) {
      throw new ToolError(
        "timeout",
        `${action}: ran past the ${target.ceilingMs}ms ceiling and was cancelled; retry with narrower arguments`,
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout && !signal?.aborted) {
      const quiet = onProgress ? " without progress" : "";
      throw new ToolError(
        "timeout",
        `${action}: timed out after ${limitMs}ms${quiet} and was cancelled; retry with narrower arguments or a larger timeout`,
      );
    }
    if (signal?.aborted) throw error;
    throw callError(error, action, target);
  } finally {
    clearTimeout(ceiling);
    signal?.removeEventListener("abort", forward);
  }
}

function callError(error: unknown, action: string, target: CallTarget): ToolError {
  const { shape } = target;
  // A ToolError from below (a remote server that needs authorising) already names the server and the fix.
  if (error instanceof ToolError) return error;
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    const how = target.ended?.();
    return new ToolError(
      "unavailable",
      `${action}: the connection closed mid-call${
        how ? ` (the server ${how})` : ""
      }; the next call restarts it`,
    );
  }
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
