/** Process-tree kills with real processes, verified by pid: shell_kill, escalation, escapees, timeout, shutdown. */
import assert from "node:assert/strict";
import type { Client } from "../../../lib/mcp/sdk.ts";
import { connect, type Connection, textOf } from "../../_support/connect.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows, os } from "../../../lib/platform/mod.ts";
import { listProcesses } from "../../../lib/process/processes.ts";
import { allAlive, isAlive, pidsIn, reap, shellServer, waitFor } from "./processes.ts";

const posixOnly = { ignore: isWindows };

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
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    await c.text("shell_start", {
      command: "sleep 300 & echo pid:$!; sleep 300 & echo pid:$!; echo pid:$$; wait",
    });
    const pids = await printedPids(c, 1, 3);
    try {
      assert.ok(await allAlive(pids));
      const text = await c.text("shell_kill", { job_id: 1 });
      assert.match(text, /^job 1 killed \(signal SIGTERM\) after/);
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
    await using c = await connect(shellServer(ws.path, { graceMs: 300 }));
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
    await using c = await connect(shellServer(ws.path));
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
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const text = await c.text("shell_run", {
      command: "echo partial; sleep 300 & echo pid:$!; wait",
      timeout_s: 0.5,
      wait_s: 20,
    });
    const pids = pidsIn(text);
    try {
      assert.match(text, /^timeout after \d+\.\ds \(tree killed\)\npartial\npid:\d+$/);
      assert.equal(pids.length, 1);
      assert.equal(await isAlive(pids[0]), false);
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
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const controller = new AbortController();
    const call = c.client.callTool(
      { name: "shell_run", arguments: { command: "sleep 300 & echo pid:$!; wait", wait_s: 50 } },
      undefined,
      { signal: controller.signal },
    ).catch((error: unknown) => error);
    let pids: number[] = [];
    await waitFor("the job's pid", async () => {
      const jobs = (await c.call("shell_list")).structuredContent as { jobs: unknown[] };
      if (jobs.jobs.length === 0) return false;
      pids = pidsIn(await c.text("shell_output", { job_id: 1, since: 0, wait_s: 1 }));
      return pids.length === 1;
    });
    try {
      controller.abort();
      assert.ok(await call instanceof Error);
      await waitFor("the cancelled job to end", async () => {
        const jobs = (await c.call("shell_list")).structuredContent as { jobs: { state: string }[] };
        return jobs.jobs[0].state === "killed";
      });
      assert.equal(await isAlive(pids[0]), false);
    } finally {
      reap(pids);
    }
  },
});

Deno.test({
  name: "closing the server kills every job tree, finished jobs' leftovers included",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    const handle = shellServer(ws.path);
    let pids: number[] = [];
    try {
      await using c = await connect(handle);
      await c.text("shell_start", { command: "sleep 300 & echo pid:$!; wait" });
      // A shell that exits at once but leaves a background child behind.
      const run = await c.text("shell_run", { command: "sleep 300 & echo pid:$!" });
      assert.match(run, /its background processes still run/);
      pids = [...await printedPids(c, 1, 1), ...pidsIn(run)];
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
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    const pids: number[] = [];
    try {
      {
        await using c = await spawnStdio("shell", { cwd: ws.path });
        const { tools } = await c.client.listTools();
        assert.deepEqual(tools.map((t) => t.name), [
          "shell_run",
          "shell_start",
          "shell_output",
          "shell_input",
          "shell_kill",
          "shell_list",
        ]);
        const run = await c.client.callTool({
          name: "shell_run",
          arguments: { command: "echo hi from $0; pwd" },
        });
        const text = textOf(run as never);
        assert.ok(text.startsWith("exit 0 after "), text);
        assert.ok(text.endsWith(`bash\n${ws.path}`) || text.endsWith(`sh\n${ws.path}`), text);
        // Filters run in a child process: the server's permissions must allow starting it.
        const filtered = await c.client.callTool({
          name: "shell_output",
          arguments: { job_id: 1, since: 0, filter: "^hi" },
        });
        assert.match(textOf(filtered as never), /; next since=\d+\nhi from .*sh$/);
        pids.push(...await startSleeperOverStdio(c.client, 2));
      }
      // Closing the client closed the server's stdin: its shutdown must take the job tree with it.
      await waitFor("the server to kill its job", async () => !await isAlive(pids[0]), 8000);
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
      await using c = await spawnStdio("shell", { cwd: ws.path });
      pids.push(...await startSleeperOverStdio(c.client, 1));
      Deno.kill(c.pid!, "SIGTERM");
      await waitFor("the server to kill its job", async () => !await isAlive(pids[0]), 8000);
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

/** Starts `sleep 300 & wait` as job `jobId` through a stdio client and returns the sleeper's pid. */
async function startSleeperOverStdio(client: Client, jobId: number): Promise<number[]> {
  await client.callTool({ name: "shell_start", arguments: { command: "sleep 300 & echo pid:$!; wait" } });
  const pids: number[] = [];
  await waitFor("the job's pid", async () => {
    const out = await client.callTool({ name: "shell_output", arguments: { job_id: jobId, wait_s: 2 } });
    pids.push(...pidsIn(textOf(out as never)));
    return pids.length > 0;
  });
  return pids;
}
