/** The notes server: repo-local agent memory as markdown files under `<repo-root>/.continue-notes/`. */
import { createMcpServer, type McpServerHandle } from "../../lib/mcp/server.ts";
import { createTools, type NotesDeps } from "./tools.ts";

/** Builds the notes server; no I/O until a tool is called. */
export function createServer(options: NotesDeps): McpServerHandle {
  return createMcpServer({
    name: "notes",
    instructions:
      "Repo-local memory in .continue-notes/: notes_list at the start of a task, notes_read the " +
      "relevant notes, notes_write durable learnings (build commands, gotchas, decisions) at the end.",
    tools: createTools(options),
    workspace: options.workspace,
  });
}
