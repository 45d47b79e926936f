/** Builds the notes server from env: for its stdio entry and the gateway's in-process hosting. */
import type { McpServerHandle } from "../../lib/mcp/server.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import { homeFolders } from "../../lib/workspace/homes.ts";
import { createServer } from "./server.ts";

/** The notes server, configured from env exactly as its stdio entry runs it. */
export function boot(): McpServerHandle {
  return createServer({ workspace: Workspace.fromEnv(), homes: homeFolders(Deno.env.toObject()) });
}
