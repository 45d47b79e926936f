/** The hello server: the first thing a user wires up. */
import meta from "./server.json" with { type: "json" };
import { createMcpServer, type McpServerHandle } from "../../lib/mcp/server.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { createTools } from "./tools.ts";

/** What the hello server needs. */
export interface HelloOptions {
  workspace: Workspace;
}

/** Builds the hello server; no I/O until it is connected. */
export function createServer(options: HelloOptions): McpServerHandle {
  return createMcpServer({
    name: "hello",
    instructions: meta.instructions,
    tools: createTools(options),
    workspace: options.workspace,
  });
}
