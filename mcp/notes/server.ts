/** The notes server: repo-local agent memory as markdown files under `<repo-root>/.continue-notes/`. */
import meta from "./server.json" with { type: "json" };
import { createMcpServer, type McpServerHandle } from "../../lib/mcp/server.ts";
import { createTools, type NotesDeps } from "./tools.ts";

/** Builds the notes server; no I/O until a tool is called. */
export function createServer(options: NotesDeps): McpServerHandle {
  return createMcpServer({
    name: "notes",
    instructions: meta.instructions,
    tools: createTools(options),
    workspace: options.workspace,
  });
}
