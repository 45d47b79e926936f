/** The template server's tool table: one defineTool per tool; the logic goes in its own module. */
import { z } from "zod";
import { defineTool, type ToolDefinition } from "../../lib/mcp/tool.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The tools, closed over their dependencies. */
export function createTools(deps: { workspace: Workspace }): ToolDefinition[] {
  return [
    defineTool({
      name: "template_describe",
      description: "Describe a workspace path: its real location, shown relative to the workspace.",
      input: { path: z.string().describe("Path, relative to the workspace") },
      annotations: READ_ONLY,
      run: async ({ path }) => deps.workspace.display(await deps.workspace.resolveInside(path)),
    }),
  ];
}
