/** The search server: ripgrep-backed content and file-name search. */
import { createMcpServer, type McpServerHandle } from "../../lib/mcp/server.ts";
import { createTools, type SearchDeps } from "./tools.ts";

/** Builds the search server; no I/O until it is connected. */
export function createServer(deps: SearchDeps): McpServerHandle {
  return createMcpServer({
    name: "search",
    instructions:
      "Fast ripgrep search of the workspace: search_grep for contents, search_glob for file names.",
    tools: createTools(deps),
    workspace: deps.workspace,
  });
}
