/**
 * shell-mcp: a background-job terminal (shell_run, shell_start, shell_output, shell_input, shell_kill,
 * shell_list). Permissions: --allow-run (shells, signals, taskkill), --allow-read (workspace, PATH lookup,
 * /proc for process trees), --allow-env (PATH, the jobs' environment).
 * @module
 */
import { serveStdio } from "../../lib/mcp/serve.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import { parseEnvAllow } from "./env.ts";
import { createServer } from "./server.ts";

const seconds = (name: string) => Number(Deno.env.get(name)) || undefined;

await serveStdio(createServer({
  workspace: Workspace.fromEnv(),
  serverEnv: Deno.env.toObject(),
  envAllow: parseEnvAllow(Deno.env.get("SHELL_MCP_ENV_ALLOW")),
  runTimeoutS: seconds("SHELL_MCP_RUN_TIMEOUT"),
  startTimeoutS: seconds("SHELL_MCP_START_TIMEOUT"),
}));
