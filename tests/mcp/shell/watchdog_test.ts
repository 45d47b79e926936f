/** Real server processes: jobs die with a SIGKILLed server, a new server reaps a dead one's, parents hold no secrets. */
import assert from "node:assert/strict";
import { textOf } from "../../_support/connect.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows, os } from "../../../lib/platform/mod.ts";
import { allAlive, isAlive, pidsIn, reap, UNSANDBOXED, waitFor } from "./processes.ts";

const posixOnly = { ignore: isWindows };

Deno.test({
  name: "stdio: SIGKILL of the server still kills its jobs, running ones and an exited one's leftovers",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    const pids: number[] = [];
    try {
      await using c = await spawnStdio("shell", { cwd: ws.path, env: UNSANDBOXED });
      const call = async (name: string, args: Record<string, unknown>) =>
        textOf(await c.client.callTool({ name, arguments: args }) as never);
      await call("shell_start", {
        command: "sleep 300 & echo pid:$!; sleep 301 & echo pid:$!; echo pid:$$; wait",
      });
      const left = await call("shell_run", { command: "sleep 302 >/dev/null 2>&1 & echo pid:$!" });
      pids.push(...pidsIn(left));
      await waitFor("the running job's pids", async () => {
        pids.push(...pidsIn(await call("shell_output", { job_id: 1, wait_s: 2 })));
        return pids.length === 4;
      });
      assert.ok(await allAlive(pids));
      Deno.kill(c.pid!, "SIGKILL");
      // No cleanup code of the server runs: only its watchdog, which sees the server's end, can do this.
      await waitFor("every job process to die", async () => {
        for (const pid of pids) if (await isAlive(pid)) return false;
        return true;
      }, 8000);
    } finally {
      reap(pids);
    }
  },
});

Deno.test({
  name: "stdio: a starting server reaps processes whose marker names a dead server, not a live one (Linux)",
  ignore: os !== "linux",
  fn: async () => {
    await using ws = await tempWorkspace();
    const dead = new Deno.Command("true").spawn();
    await dead.status;
    const sleeper = (server: number) =>
      new Deno.Command("sleep", {
        args: ["300"],
        env: { SHELL_MCP_JOB: `${server}-0123abcd.1` },
        detached: true,
        stdout: "null",
        stderr: "null",
      }).spawn();
    const orphan = sleeper(dead.pid);
    const live = sleeper(Deno.pid);
    try {
      await using _ = await spawnStdio("shell", { cwd: ws.path });
      await waitFor("the dead server's orphan to be reaped", async () => !await isAlive(orphan.pid), 8000);
      assert.equal(await isAlive(live.pid), true, "a live server's job was reaped");
    } finally {
      reap([orphan.pid, live.pid]);
      await orphan.status;
      await live.status;
    }
  },
});

Deno.test({
  name: "stdio: with SHELL_MCP_ENV_ALLOW a job's parent holds only allowed variables (Linux /proc)",
  ignore: os !== "linux",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await spawnStdio("shell", {
      cwd: ws.path,
      env: { SHELL_MCP_ENV_ALLOW: "PATH", SHELL_TEST_SECRET: "hunter2" },
    });
    const run = await c.client.callTool({
      name: "shell_run",
      arguments: { command: "echo own=$SHELL_TEST_SECRET; tr '\\0' '\\n' < /proc/$PPID/environ" },
    });
    const text = textOf(run as never);
    assert.match(text, /^exit 0 after .*\nown=\n/);
    assert.match(text, /^PATH=/m, "the parent's environment was not read");
    assert.doesNotMatch(text, /hunter2|SHELL_TEST_SECRET/);
  },
});
