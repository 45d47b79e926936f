/** Builds the shell server from env: for its stdio entry and the gateway's in-process hosting. */
import type { McpServerHandle } from "../../lib/mcp/server.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import { parseEnvAllow } from "./env.ts";
import { createServer } from "./server.ts";

const seconds = (name: string) => Number(Deno.env.get(name)) || undefined;

/** The shell server, configured from env exactly as its stdio entry runs it. */
export function boot(): McpServerHandle {
  return createServer({
    workspace: Workspace.fromEnv(),
    serverEnv: Deno.env.toObject(),
    envAllow: parseEnvAllow(Deno.env.get("SHELL_MCP_ENV_ALLOW")),
    runTimeoutS: seconds("SHELL_MCP_RUN_TIMEOUT"),
    startTimeoutS: seconds("SHELL_MCP_START_TIMEOUT"),
  });
}
