/** Builds the template server from env: for its stdio entry and the gateway's in-process hosting. */
import type { McpServerHandle } from "../../lib/mcp/server.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import { createServer } from "./server.ts";

/** The template server, configured from env exactly as its stdio entry runs it. */
export function boot(): McpServerHandle {
  return createServer({ workspace: Workspace.fromEnv() });
}
