/** The sql server: format and lint SQL in one house style with sqruff or sqlfluff. */
import meta from "./server.json" with { type: "json" };
import { createMcpServer, type McpServerHandle } from "../../lib/mcp/server.ts";
import { createTools, type SqlDeps } from "./tools.ts";

/** Builds the sql server; no I/O until a tool runs (the backend is discovered on first use). */
export function createServer(options: SqlDeps): McpServerHandle {
  return createMcpServer({
    name: "sql",
    instructions: meta.instructions,
    tools: createTools(options),
    workspace: options.workspace,
  });
}
