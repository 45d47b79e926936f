/** The sql server: format and lint SQL in one house style with sqruff or sqlfluff. */
import { createMcpServer, type McpServerHandle } from "../../lib/mcp/server.ts";
import { createTools, type SqlDeps } from "./tools.ts";

/** Builds the sql server; no I/O until a tool runs (the backend is discovered on first use). */
export function createServer(options: SqlDeps): McpServerHandle {
  return createMcpServer({
    name: "sql",
    instructions: "Format and lint SQL in the house style (Snowflake, lower case, leading commas) with " +
      "sqruff or sqlfluff; a workspace .sqruff/.sqlfluff overrides it. sqlfluff takes ~1 s per statement.",
    tools: createTools(options),
    workspace: options.workspace,
  });
}
