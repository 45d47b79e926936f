/** The search server: ripgrep-backed content and file-name search. */
import meta from "./server.json" with { type: "json" };
import { createMcpServer, type McpServerHandle } from "../../lib/mcp/server.ts";
import { createTools, type SearchDeps } from "./tools.ts";

/** Builds the search server; no I/O until it is connected. */
export function createServer(deps: SearchDeps): McpServerHandle {
  return createMcpServer({
    name: "search",
    instructions: meta.instructions,
    tools: createTools(deps),
    workspace: deps.workspace,
  });
}
