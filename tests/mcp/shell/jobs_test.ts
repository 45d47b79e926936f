/** The job registry directly: its limits hold under concurrent calls and against a racing shutdown. */
import assert from "node:assert/strict";
import { tempWorkspace } from "../../_support/workspace.ts";
import { ToolError } from "../../../lib/mcp/errors.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { JobRegistry } from "../../../mcp/shell/jobs.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { isAlive, reap } from "./processes.ts";

function registry(cwd: string, maxRunning: number): JobRegistry {
  return new JobRegistry({
    workspace: new Workspace({ cwd }),
    serverEnv: Deno.env.toObject(),
    maxRunning,
    graceMs: 500,
  });
}

Deno.test({
  name: "concurrent starts cannot exceed the running-jobs limit",
  fn: async () => {
    await using ws = await tempWorkspace();
    const jobs = registry(ws.path, 2);
    try {
      const starts = Array.from({ length: 6 }, () => jobs.start({ command: "sleep 300", timeoutMs: 60_000 }));
      const results = await Promise.allSettled(starts);
      const refused = results.filter((result) => result.status === "rejected");
      assert.equal(jobs.list().filter((job) => job.state === "running").length, 2);
      assert.equal(refused.length, 4);
      for (const result of refused) {
        const error = (result as PromiseRejectedResult).reason;
        assert.ok(error instanceof ToolError && error.code === "unavailable", String(error));
        assert.match(error.message, /2 jobs are already running/);
      }
    } finally {
      await jobs.closeAll();
    }
  },
});

Deno.test({
  name: "a failed start releases its reserved slot",
  fn: async () => {
    await using ws = await tempWorkspace();
    const jobs = registry(ws.path, 1);
    try {
      await assert.rejects(
        jobs.start({ command: "exit 0", cwd: "missing", timeoutMs: 60_000 }),
        /no such folder/,
      );
      const job = await jobs.start({ command: "exit 0", timeoutMs: 60_000 });
      await job.finished;
      assert.equal(job.state, "exited");
    } finally {
      await jobs.closeAll();
    }
  },
});

Deno.test({
  name: "a start racing shutdown never spawns after closeAll",
  fn: async () => {
    await using ws = await tempWorkspace();
    const jobs = registry(ws.path, 4);
    // The start passes its first checks, then awaits the shell and cwd lookups while closeAll runs.
    const refused = assert.rejects(
      jobs.start({ command: "sleep 300", timeoutMs: 60_000 }),
      /Cannot start a job: the server is shutting down/,
    );
    await jobs.closeAll();
    await refused;
    assert.deepEqual(jobs.list(), []);
  },
});

Deno.test({
  name: "closeAll never signals a group that a finished job's pid now names (pid reuse)",
  ignore: isWindows,
  fn: async () => {
    await using ws = await tempWorkspace();
    const jobs = registry(ws.path, 4);
    const victim = new Deno.Command("sleep", {
      args: ["300"],
      detached: true,
      stdout: "null",
      stderr: "null",
    })
      .spawn();
    try {
      const job = await jobs.start({ command: "exit 0", timeoutMs: 60_000 });
      await job.finished;
      // What pid reuse does after the job's shell was reaped: its number now leads an unrelated live group.
      Object.defineProperty(job, "pid", { value: victim.pid });
      await jobs.closeAll();
      assert.equal(await isAlive(victim.pid), true, "shutdown killed a group that is not ours");
    } finally {
      reap([victim.pid]);
      await victim.status;
    }
  },
});
