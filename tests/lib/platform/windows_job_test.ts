import assert from "node:assert/strict";
import { isWindows, ownProcessTree } from "../../../lib/platform/mod.ts";
import {
  ACCOUNTING_INFORMATION_SIZE,
  activeProcessesOf,
  EXTENDED_LIMIT_INFORMATION_SIZE,
  extendedLimitInformation,
  JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
} from "../../../lib/platform/windows_job.ts";
import { isAlive, pidsIn, reap, waitFor } from "../../mcp/shell/processes.ts";

Deno.test("the x64 extended limit struct carries only kill-on-close, in BasicLimitInformation.LimitFlags", () => {
  const bytes = extendedLimitInformation(JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE);
  assert.equal(bytes.length, EXTENDED_LIMIT_INFORMATION_SIZE);
  // Two LARGE_INTEGER time limits come first; LimitFlags is the DWORD after them.
  assert.deepEqual([...bytes.subarray(16, 20)], [0x00, 0x20, 0x00, 0x00]);
  assert.equal(bytes.reduce((sum, byte) => sum + byte, 0), 0x20);
});

Deno.test("ActiveProcesses is read from offset 40 of the accounting struct, little-endian", () => {
  const accounting = new Uint8Array(ACCOUNTING_INFORMATION_SIZE);
  accounting[36] = 9; // TotalProcesses: must not be taken for ActiveProcesses
  accounting[40] = 3;
  accounting[41] = 1;
  assert.equal(activeProcessesOf(accounting), 259);
});

Deno.test({
  name: "no Job Objects off Windows: process groups own the trees there",
  ignore: isWindows,
  fn: () => {
    assert.equal(ownProcessTree(Deno.pid), null);
  },
});

Deno.test({
  name: "a Job Object ends a tree whose root already exited, orphans included, and only it (Windows)",
  ignore: !isWindows || Deno.permissions.querySync({ name: "ffi" }).state !== "granted",
  fn: async () => {
    // The root starts a sleeper, prints its pid and exits: the sleeper is an orphan taskkill /T cannot find.
    const script =
      "const kid = new Deno.Command(Deno.execPath(), { args: [`eval`, `setTimeout(() => {}, 300000)`]," +
      " stdout: `null` }).spawn(); console.log(`pid:${kid.pid}`); kid.unref();";
    const root = new Deno.Command(Deno.execPath(), { args: ["eval", script], stdout: "piped" }).spawn();
    const tree = ownProcessTree(root.pid);
    const bystander = new Deno.Command(Deno.execPath(), {
      args: ["eval", "setTimeout(() => {}, 300000)"],
      stdout: "null",
    }).spawn();
    const pids: number[] = [bystander.pid];
    try {
      assert.ok(tree, "ownProcessTree returned null with --allow-ffi on Windows");
      const { stdout } = await root.output();
      pids.push(...pidsIn(new TextDecoder().decode(stdout)));
      assert.equal(pids.length, 2);
      assert.ok(await isAlive(pids[1]), "the orphan should still run");
      assert.equal(tree.alive(), true);
      // Only members are held (their pids then cannot be reused): the orphan is one, the bystander not.
      const release = tree.holdMember(pids[1]);
      assert.ok(release, "the orphan is not seen as a member of the job");
      release();
      assert.equal(tree.holdMember(bystander.pid), null);
      tree.terminate();
      await waitFor("the job to empty", () => Promise.resolve(!tree.alive()));
      assert.equal(await isAlive(pids[1]), false, "the orphan survived TerminateJobObject");
      assert.equal(await isAlive(bystander.pid), true, "a process outside the job was killed");
    } finally {
      tree?.close();
      reap(pids);
      await bystander.status;
    }
  },
});

Deno.test({
  name: "closing a kill-on-close Job Object ends what still runs in it (Windows)",
  ignore: !isWindows || Deno.permissions.querySync({ name: "ffi" }).state !== "granted",
  fn: async () => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", "setTimeout(() => {}, 300000)"],
      stdout: "null",
    }).spawn();
    const tree = ownProcessTree(child.pid);
    try {
      assert.ok(tree);
      tree.close();
      const status = await child.status;
      assert.equal(status.success, false);
    } finally {
      reap([child.pid]);
    }
  },
});
