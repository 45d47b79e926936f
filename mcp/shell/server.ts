/** The shell server: a background-job terminal whose calls never block the agent for long. */
import meta from "./server.json" with { type: "json" };
import { createMcpServer, type McpServerHandle } from "../../lib/mcp/server.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { JobRegistry, type JobsOptions } from "./jobs.ts";
import { Sandbox } from "../../lib/sandbox/sandbox.ts";
import { createTools } from "./tools.ts";
import { clientAsker } from "./ask.ts";

/** What the shell server needs. */
export interface ShellOptions extends Omit<JobsOptions, "workspace"> {
  workspace: Workspace;
  /** Default `timeout_s` of shell_run (120 s) and of shell_start (600 s). */
  runTimeoutS?: number;
  startTimeoutS?: number;
  /** How long shell_input waits for the job to take its text (default 2000 ms). */
  inputWaitMs?: number;
  /** How long a shell_output filter may run before it is killed (default 5000 ms). */
  filterTimeoutMs?: number;
}

/**
 * Builds the shell server; its cleanup kills every job's process tree. Without `sandbox`, jobs run in one
 * configured from the server's environment (MCP_SANDBOX…) and the user's sandbox.json.
 */
export function createServer(options: ShellOptions): McpServerHandle {
  const sandbox = options.sandbox ?? sandboxFromEnv(options);
  sandbox.setAsker(clientAsker({
    handle: () => handle,
    env: options.serverEnv,
    workspace: () => options.workspace.roots[0],
  }));
  const jobs = new JobRegistry({ ...options, sandbox });
  // Read by the asker only once a client is connected, long after this assignment.
  const handle: McpServerHandle = createMcpServer({
    name: "shell",
    instructions: meta.instructions,
    tools: createTools({
      jobs,
      runTimeoutS: options.runTimeoutS,
      startTimeoutS: options.startTimeoutS,
      inputWaitMs: options.inputWaitMs,
      filterTimeoutMs: options.filterTimeoutMs,
      sandbox,
    }),
    workspace: options.workspace,
    cleanup: () => jobs.closeAll(),
  });
  return handle;
}

/** The sandbox the user configured: their environment and config file, nothing from the workspace or model. */
export function sandboxFromEnv(
  options: { workspace: Workspace; serverEnv: Record<string, string> },
): Sandbox {
  const workspace = options.workspace;
  return new Sandbox({
    env: options.serverEnv,
    workspace: {
      roots: async () => {
        await workspace.ready();
        return { roots: workspace.roots, allowDirs: workspace.allowDirs };
      },
    },
  });
}
