/**
 * Startup reaping judges a server dead only within its own PID namespace: a server in a container (another
 * PID namespace on the same kernel, same uid) names itself by a pid that means nothing, or someone else, here.
 * @module
 */
import assert from "node:assert/strict";
import { spawnStdio } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { os } from "../../../lib/platform/mod.ts";
import { listProcesses, readMarkers } from "../../../lib/process/processes.ts";
import { isAlive, reap, UNSANDBOXED, waitFor } from "./processes.ts";
import { spawnShellProcess } from "./server_process.ts";

/** `unshare --pid` needs root (or a user namespace); this test uses root, as a devcontainer host does. */
async function canUnshare(): Promise<boolean> {
  if (os !== "linux" || Deno.uid() !== 0) return false;
  const probe = new Deno.Command("unshare", {
    args: ["--pid", "--fork", "--mount-proc", "true"],
    stdout: "null",
    stderr: "null",
  });
  return await probe.output().then((out) => out.success, () => false);
}

/**
 * A pid no process holds here, which the host will not hand out for a while: pids are allocated upwards,
 * so one just below the last allocated is free until the counter wraps around.
 */
async function freePidBelowLast(): Promise<number> {
  const out = await new Deno.Command("cat", { args: ["/proc/sys/kernel/ns_last_pid"], stdout: "piped" })
    .output();
  const last = Number(new TextDecoder().decode(out.stdout));
  const used = new Set((await listProcesses())?.map((row) => row.pid));
  for (let pid = last - 50; pid > 300; pid--) if (!used.has(pid)) return pid;
  throw new Error("no free pid found");
}

Deno.test({
  name:
    "stdio: a starting server leaves alone the jobs of a live server in another PID namespace (Linux, root)",
  ignore: !await canUnshare(),
  fn: async () => {
    await using ws = await tempWorkspace();
    // The namespaced server gets a pid that is free out here: its marker then names a "dead" server.
    const serverPid = await freePidBelowLast();
    await using inner = await spawnShellProcess({
      cwd: ws.path,
      // Its job's processes are counted below: outside the sandbox, its parent `sh` and `sleep`.
      env: UNSANDBOXED,
      prefix: [
        "unshare",
        "--pid",
        "--fork",
        "--mount-proc",
        "sh",
        "-c",
        `echo ${serverPid - 1} > /proc/sys/kernel/ns_last_pid; "$@"; exit $?`,
        "namespaced-server",
      ],
    });
    const started = await inner.call("shell_start", {
      command: "echo marker:$SHELL_MCP_JOB; exec sleep 300",
    });
    assert.match(started, /^job 1 running/);
    let marker = "";
    await waitFor("the job's marker", async () => {
      marker = /^marker:(.+)$/m.exec(await inner.call("shell_output", { job_id: 1, since: 0, wait_s: 2 }))
        ?.[1] ?? "";
      return marker !== "";
    });
    // Out here the job's processes (its parent `sh` and `sleep`) have host pids; find them by the marker.
    let jobPids: number[] = [];
    await waitFor("the namespaced job's processes", async () => {
      jobPids = (await readMarkers("SHELL_MCP_JOB")).filter((m) => m.value === marker).map((m) => m.pid);
      return jobPids.length === 2;
    });
    // A control: a process whose marker names a pid of this namespace that is dead must still be reaped.
    const dead = new Deno.Command("true").spawn();
    await dead.status;
    const control = new Deno.Command("sleep", {
      args: ["300"],
      env: { SHELL_MCP_JOB: `${dead.pid}-0123abcd.1` },
      detached: true,
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      await using _host = await spawnStdio("shell", { cwd: ws.path });
      await waitFor("the dead server's orphan to be reaped", async () => !await isAlive(control.pid), 8000);
      // One reaping pass signals all it judged orphaned at once: the namespaced job would be dying now.
      for (const pid of jobPids) {
        assert.equal(await isAlive(pid), true, `namespaced job process ${pid} was reaped`);
      }
      assert.match(await inner.call("shell_output", { job_id: 1 }), /^job 1 running/);
    } finally {
      reap([control.pid]);
      await control.status;
    }
  },
});
