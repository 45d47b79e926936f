/** The template server: its one-line summary lives in server.json, shared with the README and doctor. */
import { createMcpServer, type McpServerHandle } from "../../lib/mcp/server.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { createTools } from "./tools.ts";
import manifest from "./server.json" with { type: "json" };

/** What the template server needs. */
export interface ServerOptions {
  workspace: Workspace;
}

/** Builds the template server; no I/O until it is connected. */
export function createServer(options: ServerOptions): McpServerHandle {
  return createMcpServer({
    name: "template",
    instructions: manifest.instructions,
    tools: createTools(options),
    workspace: options.workspace,
  });
}
