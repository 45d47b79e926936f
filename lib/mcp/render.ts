/** Turns what a tool's `run` returns, or throws, into an MCP CallToolResult. */
import type { CallToolResult } from "./sdk.ts";
import { ToolError } from "./errors.ts";
import { log } from "../log.ts";

/** A text block or an image block, as MCP content. */
export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string };

/** What a text-centric tool returns: plain text, or content blocks (e.g. an image). */
export type TextOutput = string | ContentBlock[];

/** A text-centric result: the text only, no structuredContent. */
export function renderText(output: TextOutput): CallToolResult {
  return { content: typeof output === "string" ? [{ type: "text", text: output }] : output };
}

/** A JSON-shaped result: structuredContent plus the same JSON as text, for clients that show only text. */
export function renderStructured(output: Record<string, unknown>): CallToolResult {
  return { structuredContent: output, content: [{ type: "text", text: JSON.stringify(output) }] };
}

/**
 * An error result. Continue's CLI hides `isError` from the model, so the text itself reads as an error:
 * `Error [not_found]: Cannot read "a.ts": no such file`. No structuredContent: the SDK client rejects error
 * results whose structured content misses the output schema.
 */
export function renderError(error: unknown, toolName?: string): CallToolResult {
  const toolError = error instanceof ToolError ? error : unexpected(error, toolName);
  return {
    isError: true,
    content: [{ type: "text", text: `Error [${toolError.code}]: ${toolError.message}` }],
    _meta: { ...toolError.meta, code: toolError.code },
  };
}

function unexpected(error: unknown, toolName = "tool"): ToolError {
  log.error(`${toolName} failed unexpectedly`, error);
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolError("internal", `${toolName} failed unexpectedly: ${reason}`);
}
