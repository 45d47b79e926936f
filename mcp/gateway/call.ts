/** One downstream tools/call with a time limit, cancelled downstream on timeout or abort. */
import { ToolError } from "../../lib/mcp/errors.ts";
import {
  type CallToolResult,
  CallToolResultSchema,
  type Client,
  ErrorCode,
  McpError,
} from "../../lib/mcp/sdk.ts";

/** Which call, for error messages, and its limits. */
export interface CallTarget {
  server: string;
  tool: string;
  limitMs: number;
  signal?: AbortSignal;
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
  const { server, tool, limitMs, signal } = target;
  const controller = new AbortController();
  const forward = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", forward, { once: true });
  if (signal?.aborted) forward();
  let timedOut = false;
  // Aborting the request's signal makes the SDK send notifications/cancelled downstream.
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limitMs);
  try {
    return await client.request(
      { method: "tools/call", params: { name: tool, arguments: args } },
      CallToolResultSchema,
      // The SDK's own timer (60 s by default) must not fire first.
      { signal: controller.signal, timeout: limitMs + 1_000 },
    ) as CallToolResult;
  } catch (error) {
    if (timedOut) {
      throw new ToolError(
        "timeout",
        `Cannot call "${tool}" on MCP server "${server}": timed out after ${limitMs}ms and was cancelled; retry with narrower arguments or a larger timeout`,
      );
    }
    if (signal?.aborted) throw error;
    throw callError(error, server, tool);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", forward);
  }
}

function callError(error: unknown, server: string, tool: string): ToolError {
  const action = `Cannot call "${tool}" on MCP server "${server}"`;
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return new ToolError("unavailable", `${action}: the server exited mid-call; the next call restarts it`);
  }
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof McpError && error.code === ErrorCode.InvalidParams) {
    return new ToolError("invalid_argument", `${action}: ${message}`);
  }
  return new ToolError("internal", `${action}: ${message}`);
}
