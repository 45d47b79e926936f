/** The edit server's tool table: edit_file (exact-then-fuzzy replacements in files) and edit_write (whole file). */
import { z } from "zod";
import { defineTool, type ToolContext, type ToolDefinition } from "../../lib/mcp/tool.ts";
import { renderError } from "../../lib/mcp/render.ts";
import type { CallToolResult } from "../../lib/mcp/sdk.ts";
import { type EditDeps, editFile } from "./edit_file.ts";
import { editWrite } from "./edit_write.ts";
import { normalizeEditArguments } from "./request.ts";
import { showBytes } from "./chars.ts";

const WRITES = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

/** The tools, closed over their dependencies. */
export function createTools(deps: EditDeps): ToolDefinition[] {
  const edit = defineTool({
    name: "edit_file",
    description:
      "Replace text in files (edits[].path, else path). Each old_text must match exactly once (copy " +
      'it without line numbers) unless replace_all; all edits apply together or none. old_text "" creates a file.',
    input: {
      path: z.string().optional(),
      edits: z.array(z.object({
        path: z.string().optional(),
        old_text: z.string(),
        new_text: z.string(),
        replace_all: z.boolean().optional(),
        expected_count: z.number().optional().describe("With replace_all: occurrences that must be found"),
      })).min(1).max(100),
      dry_run: z.boolean().optional().describe("Return the diff, write nothing"),
      expected_sha256: z.string().optional().describe(
        "Refuse unless the file still has this SHA-256 (from fs_read or sha256_after)",
      ),
    },
    annotations: WRITES,
    run: (input) => editFile(deps, input),
  });
  const write = defineTool({
    name: "edit_write",
    description:
      "Write a whole file atomically, creating folders. Replacing a non-empty file needs overwrite or expected_sha256.",
    input: {
      path: z.string(),
      content: z.string(),
      overwrite: z.boolean().optional(),
      expected_sha256: z.string().optional(),
    },
    annotations: WRITES,
    run: (input) => editWrite(deps, input),
  });
  return [
    { ...edit, call: async (args, context) => showResultBytes(await callEdit(edit, args, context)) },
    { ...write, call: async (args, context) => showResultBytes(await write.call(args, context)) },
  ];
}

/** edit_file with its arguments repaired first; a repair that finds two spellings of one argument refuses. */
async function callEdit(edit: ToolDefinition, args: unknown, context: ToolContext): Promise<CallToolResult> {
  let normalized: unknown;
  try {
    normalized = normalizeEditArguments(args);
  } catch (error) {
    return renderError(error, edit.name);
  }
  return await edit.call(normalized, context);
}

/** Every text of a result (hunks, diffs, closest blocks, messages) with undecodable bytes shown as `\xE9`. */
function showResultBytes(result: CallToolResult): CallToolResult {
  return {
    ...result,
    content: result.content.map((block) =>
      block.type === "text" ? { ...block, text: showBytes(block.text) } : block
    ),
  };
}
