/**
 * A job cannot outlive its server by leaving everything we tag it with: its session (`setsid`), its marker
 * (`env -u SHELL_MCP_JOB`) and its parent (a double fork). Real servers, ended each way a server ends.
 * @module
 */
import assert from "node:assert/strict";
import { tempWorkspace } from "../../_support/workspace.ts";
import { os } from "../../../lib/platform/mod.ts";
import { isAlive, pidsIn, reap, UNSANDBOXED, waitFor } from "./processes.ts";
import { spawnShellProcess } from "./server_process.ts";

/** One escapee still attached to the job's shell, and a daemon whose parent exited at once. */
const ESCAPES = "setsid env -u SHELL_MCP_JOB sleep 300 & echo pid:$!; " +
  "(setsid env -u SHELL_MCP_JOB sleep 301 </dev/null >/dev/null 2>&1 & echo pid:$!); wait";

/** The parent pid of `pid`, or null when it is gone. */
async function parentOf(pid: number): Promise<number | null> {
  const out = await new Deno.Command("ps", { args: ["-o", "ppid=", "-p", String(pid)], stdout: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout).trim();
  return text ? Number(text) : null;
}

for (const ending of ["SIGKILL", "SIGTERM", "stdin close"] as const) {
  Deno.test({
    name: `stdio: ${ending} of the server ends a job's setsid escapees without its marker (Linux)`,
    ignore: os !== "linux",
    fn: async () => {
      await using ws = await tempWorkspace();
      const pids: number[] = [];
      try {
        await using server = await spawnShellProcess({ cwd: ws.path, env: UNSANDBOXED });
        await server.call("shell_start", { command: ESCAPES });
        await waitFor("the escapees' pids", async () => {
          pids.push(...pidsIn(await server.call("shell_output", { job_id: 1, wait_s: 2 })));
          return pids.length === 2;
        });
        // The daemon's parent (a subshell) has exited once the daemon belongs to whoever adopts orphans.
        await waitFor("the daemon to be orphaned", async () => {
          const parent = await parentOf(pids[1]);
          return parent === 1 || parent === server.pid;
        });
        // A call makes the server look at its process family now, rather than at its next periodic look.
        await server.call("shell_list");
        for (const pid of pids) assert.equal(await isAlive(pid), true, `pid ${pid} is not running`);
        if (ending === "stdin close") await server.closeStdin();
        else Deno.kill(server.pid, ending);
        await server.status;
        await waitFor("every escapee to die", async () => {
          for (const pid of pids) if (await isAlive(pid)) return false;
          return true;
        }, 8000);
      } finally {
        reap(pids);
      }
    },
  });
}
