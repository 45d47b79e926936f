/** Turns what a tool's `run` returns, or throws, into an MCP CallToolResult. */
import type { CallToolResult } from "./sdk.ts";
import { NOT_CAPABLE_REASON, ToolError } from "./errors.ts";
import { log } from "../log.ts";
import { capText } from "../text/cap.ts";

/** A text block or an image block, as MCP content. */
export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string };

/** What a text-centric tool returns: plain text, or content blocks (e.g. an image). */
export type TextOutput = string | ContentBlock[];

/**
 * The last line of defence for the model's context: no text block leaves a server longer than this, even
 * if a tool forgot its own (smaller) cap. ~30k tokens.
 */
export const TEXT_RESULT_CAP = 120_000;

/** A text-centric result: the text only (capped at {@link TEXT_RESULT_CAP}), no structuredContent. */
export function renderText(output: TextOutput): CallToolResult {
  const blocks = typeof output === "string" ? [{ type: "text" as const, text: output }] : output;
  return {
    content: blocks.map((block) =>
      block.type === "text" && block.text.length > TEXT_RESULT_CAP
        ? { type: "text", text: capText(block.text, TEXT_RESULT_CAP) }
        : block
    ),
  };
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
  // A path Deno refuses that no module turned into its own error: still the caller's, not a crash.
  if (error instanceof Deno.errors.NotCapable) {
    return new ToolError(
      "permission_denied",
      `Cannot run ${toolName}: a path it needs ${NOT_CAPABLE_REASON}`,
    );
  }
  log.error(`${toolName} failed unexpectedly`, error);
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolError("internal", `${toolName} failed unexpectedly: ${reason}`);
}
