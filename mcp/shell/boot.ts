/** Builds the shell server from env: for its stdio entry and the gateway's in-process hosting. */
import type { McpServerHandle } from "../../lib/mcp/server.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import { parseEnvAllow } from "./env.ts";
import { createServer, sandboxFromEnv } from "./server.ts";
import { log } from "../../lib/log.ts";

const seconds = (name: string) => Number(Deno.env.get(name)) || undefined;

/** The shell server, configured from env exactly as its stdio entry runs it. */
export function boot(): McpServerHandle {
  const workspace = Workspace.fromEnv();
  const serverEnv = Deno.env.toObject();
  const sandbox = sandboxFromEnv({ workspace, serverEnv });
  // Said at start, loudly when jobs run unsandboxed (also in the first tool result and by doctor).
  sandbox.status().then(
    (status) => {
      log.info(`shell-mcp: ${status.summary}`);
      for (const problem of status.problems) log.error(`shell-mcp sandbox settings: ${problem}`);
    },
    (error) => log.error("shell-mcp: cannot tell the sandbox's mode", error),
  );
  return createServer({
    workspace,
    serverEnv,
    sandbox,
    envAllow: parseEnvAllow(Deno.env.get("SHELL_MCP_ENV_ALLOW")),
    runTimeoutS: seconds("SHELL_MCP_RUN_TIMEOUT"),
    startTimeoutS: seconds("SHELL_MCP_START_TIMEOUT"),
  });
}
