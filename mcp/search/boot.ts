/** Builds the search server from env: for its stdio entry and the gateway's in-process hosting. */
import type { McpServerHandle } from "../../lib/mcp/server.ts";
import { requireRipgrep } from "../../lib/ripgrep/locate.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import { searchTimeoutMs } from "./timeout.ts";
import { createServer } from "./server.ts";

/** The search server, configured from env exactly as its stdio entry runs it. */
export function boot(): McpServerHandle {
  return createServer({
    workspace: Workspace.fromEnv(),
    ripgrep: requireRipgrep,
    timeoutMs: searchTimeoutMs(Deno.env.get("SEARCH_MCP_TIMEOUT_S")),
  });
}
