/** Process-tree kills with real processes, verified by pid: shell_kill, escalation, escapees, timeout, shutdown. */
import assert from "node:assert/strict";
import type { Client } from "../../../lib/mcp/sdk_client.ts";
import { connect, type Connection, textOf } from "../../_support/connect.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows, os } from "../../../lib/platform/mod.ts";
import { listProcesses } from "../../../lib/process/processes.ts";
import {
  allAlive,
  isAlive,
  pidsIn,
  reap,
  sleepers,
  UNSANDBOXED,
  unsandboxedServer,
  waitFor,
} from "./processes.ts";

const posixOnly = { ignore: isWindows };
/** How a kill is reported: POSIX names the first signal; on Windows the tree is ended without one. */
const KILLED = isWindows ? /^job 1 killed/ : /^job 1 killed \(signal SIGTERM\) after/;

/** Reads a job's output until it has printed `count` `pid:N` lines. */
async function printedPids(c: Connection, jobId: number, count: number): Promise<number[]> {
  let text = "";
  await waitFor(`${count} pids from job ${jobId}`, async () => {
    text += `${await c.text("shell_output", { job_id: jobId, wait_s: 5 })}\n`;
    return pidsIn(text).length >= count;
  });
  return pidsIn(text);
}

Deno.test({
  name: "shell_kill ends the shell and every grandchild",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(unsandboxedServer(ws.path));
    await c.text("shell_start", { command: sleepers(2) });
    const pids = await printedPids(c, 1, 3);
    try {
      assert.ok(await allAlive(pids));
      const text = await c.text("shell_kill", { job_id: 1 });
      assert.match(text, KILLED);
      for (const pid of pids) assert.equal(await isAlive(pid), false, `pid ${pid} survived shell_kill`);
    } finally {
      reap(pids);
    }
  },
});

Deno.test({
  name: "a grandchild that ignores SIGTERM dies by the SIGKILL escalation",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(unsandboxedServer(ws.path, { graceMs: 300 }));
    await c.text("shell_start", {
      command: `bash -c "trap '' TERM; echo pid:\\$\\$; while :; do sleep 0.05; done" & wait`,
    });
    const pids = await printedPids(c, 1, 1);
    try {
      const text = await c.text("shell_kill", { job_id: 1 });
      assert.match(text, /^job 1 killed/);
      assert.equal(await isAlive(pids[0]), false);
    } finally {
      reap(pids);
    }
  },
});

Deno.test({
  name: "a grandchild that escaped with setsid is found by its marker and killed (Linux)",
  ignore: os !== "linux" || !exists("/usr/bin/setsid"),
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(unsandboxedServer(ws.path));
    await c.text("shell_start", { command: "setsid sleep 300 & echo pid:$!; wait" });
    const pids = await printedPids(c, 1, 1);
    try {
      // The escapee leads its own session, so the group signal cannot reach it.
      await waitFor("setsid to run", async () => {
        const rows = await listProcesses();
        return rows?.find((row) => row.pid === pids[0])?.pgid === pids[0];
      });
      await c.text("shell_kill", { job_id: 1 });
      assert.equal(await isAlive(pids[0]), false);
    } finally {
      reap(pids);
    }
  },
});

Deno.test({
  name: "timeout kills the tree, keeps the partial output and reports no exit code",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(unsandboxedServer(ws.path));
    const text = await c.text("shell_run", {
      command: `echo partial; ${sleepers(1)}`,
      // Long enough for pwsh and deno to start on a slow runner; the sleeper would run 300 s.
      timeout_s: 4,
      wait_s: 20,
    });
    const pids = pidsIn(text);
    try {
      assert.match(text, /^timeout after \d+\.\ds \(tree killed\)\npartial\npid:\d+\npid:\d+$/);
      assert.equal(pids.length, 2);
      for (const pid of pids) assert.equal(await isAlive(pid), false, `pid ${pid} survived the timeout`);
      const list = (await c.call("shell_list")).structuredContent as { jobs: Record<string, unknown>[] };
      assert.equal(list.jobs[0].state, "timeout");
      assert.equal(list.jobs[0].exit_code, null);
    } finally {
      reap(pids);
    }
  },
});

Deno.test({
  name: "cancelling an in-flight shell_run kills its job",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(unsandboxedServer(ws.path));
    const controller = new AbortController();
    const call = c.client.callTool(
      { name: "shell_run", arguments: { command: sleepers(1), wait_s: 50 } },
      undefined,
      { signal: controller.signal },
    ).catch((error: unknown) => error);
    let pids: number[] = [];
    await waitFor("the job's pid", async () => {
      const jobs = (await c.call("shell_list")).structuredContent as { jobs: unknown[] };
      if (jobs.jobs.length === 0) return false;
      pids = pidsIn(await c.text("shell_output", { job_id: 1, since: 0, wait_s: 1 }));
      return pids.length === 2;
    });
    try {
      controller.abort();
      assert.ok(await call instanceof Error);
      await waitFor("the cancelled job to end", async () => {
        const jobs = (await c.call("shell_list")).structuredContent as { jobs: { state: string }[] };
        return jobs.jobs[0].state === "killed";
      });
      for (const pid of pids) assert.equal(await isAlive(pid), false, `pid ${pid} survived the cancel`);
    } finally {
      reap(pids);
    }
  },
});

Deno.test({
  name: "closing the server kills every job tree, finished jobs' leftovers included",
  fn: async () => {
    await using ws = await tempWorkspace();
    const handle = unsandboxedServer(ws.path);
    let pids: number[] = [];
    try {
      await using c = await connect(handle);
      await c.text("shell_start", { command: sleepers(1) });
      // A shell that exits at once but leaves a background child behind.
      const run = await c.text("shell_run", { command: sleepers(1, { wait: false }) });
      assert.match(run, /its background processes still run/);
      pids = [...await printedPids(c, 1, 2), ...pidsIn(run)];
      assert.ok(await allAlive(pids));
    } finally {
      // Disposal ran handle.close(), the same cleanup stdin EOF and SIGTERM run.
      for (const pid of pids) assert.equal(await isAlive(pid), false, `pid ${pid} outlived the server`);
      reap(pids);
    }
  },
});

Deno.test({
  name: "stdio: a real client runs a command, and the server's exit kills its jobs",
  fn: async () => {
    await using ws = await tempWorkspace();
    const pids: number[] = [];
    try {
      {
        await using c = await spawnStdio("shell", { cwd: ws.path, env: UNSANDBOXED });
        const { tools } = await c.client.listTools();
        assert.deepEqual(tools.map((t) => t.name), [
          "shell_run",
          "shell_start",
          "shell_output",
          "shell_input",
          "shell_kill",
          "shell_list",
        ]);
        const command = isWindows ? "echo 'hi from pwsh'; (Get-Location).Path" : "echo hi from $0; pwd";
        const run = await c.client.callTool({ name: "shell_run", arguments: { command } });
        const text = textOf(run as never);
        assert.ok(text.startsWith("exit 0 after "), text);
        assert.ok(text.endsWith(`sh\n${ws.path}`), text);
        // Filters run in a child process: the server's permissions must allow starting it.
        const filtered = await c.client.callTool({
          name: "shell_output",
          arguments: { job_id: 1, since: 0, filter: "^hi" },
        });
        assert.match(textOf(filtered as never), /; next since=\d+\nhi from .*sh$/);
        pids.push(...await startSleeperOverStdio(c.client, 2));
      }
      // Closing the client closed the server's stdin: its shutdown must take the job tree with it.
      for (const pid of pids) {
        await waitFor(`the server to kill ${pid}`, async () => !await isAlive(pid), 8000);
      }
    } finally {
      reap(pids);
    }
  },
});

Deno.test({
  name: "stdio: SIGTERM to the server kills its job trees before it exits",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    const pids: number[] = [];
    try {
      await using c = await spawnStdio("shell", { cwd: ws.path, env: UNSANDBOXED });
      pids.push(...await startSleeperOverStdio(c.client, 1));
      Deno.kill(c.pid!, "SIGTERM");
      for (const pid of pids) {
        await waitFor(`the server to kill ${pid}`, async () => !await isAlive(pid), 8000);
      }
    } finally {
      reap(pids);
    }
  },
});

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Starts a sleeper under `deno eval` as job `jobId` through a stdio client and returns both their pids. */
async function startSleeperOverStdio(client: Client, jobId: number): Promise<number[]> {
  await client.callTool({ name: "shell_start", arguments: { command: sleepers(1) } });
  const pids: number[] = [];
  await waitFor("the job's pids", async () => {
    const out = await client.callTool({ name: "shell_output", arguments: { job_id: jobId, wait_s: 2 } });
    pids.push(...pidsIn(textOf(out as never)));
    return pids.length >= 2;
  });
  return pids;
}
