/** Tree kills with real processes: only what is provably ours is signalled (a reused group, a copied marker). */
import assert from "node:assert/strict";
import { isWindows, os } from "../../../lib/platform/mod.ts";
import { killMarked, killTree } from "../../../lib/process/tree_kill.ts";
import { nobodySleeper } from "../../_support/foreign_process.ts";
import { isAlive, reap } from "../../mcp/shell/processes.ts";

Deno.test({
  name: "killTree of a reaped root's group leaves a group that pid reuse gave to another process",
  ignore: isWindows,
  fn: async () => {
    // Stands for a process that got our old leader's pid and leads its own group: a live leader means the
    // group is not the one we started (ours would have kept that pid from being reused).
    const stranger = new Deno.Command("sleep", {
      args: ["300"],
      detached: true,
      stdout: "null",
      stderr: "null",
    })
      .spawn();
    try {
      await killTree(stranger.pid, { rootRunning: false, graceMs: 200 });
      assert.equal(await isAlive(stranger.pid), true, "killed a group that is not ours");
      // While our root is not reaped its pid, and so its group, is surely ours.
      await killTree(stranger.pid, { rootRunning: true, graceMs: 200 });
      assert.equal(await isAlive(stranger.pid), false);
    } finally {
      reap([stranger.pid]);
      await stranger.status;
    }
  },
});

Deno.test({
  name: "killMarked (root) leaves another user's processes that copied our marker, non-dumpable ones too",
  ignore: os !== "linux" || Deno.uid() !== 0,
  fn: async () => {
    // The prefix is public: the watchdog's argv carries it.
    const mark = { TREE_KILL_TEST_MARK: "c.1" };
    const theirs = await nobodySleeper(mark);
    const hidden = await nobodySleeper(mark, { nonDumpable: true });
    const ours = new Deno.Command("sleep", { args: ["300"], env: mark, stdout: "null", stderr: "null" })
      .spawn();
    const children = [theirs, hidden, ours];
    try {
      await killMarked("TREE_KILL_TEST_MARK=c.");
      assert.equal((await ours.status).signal, "SIGKILL");
      assert.equal(await isAlive(theirs.pid), true, "another user's process was killed");
      assert.equal(await isAlive(hidden.pid), true, "another user's non-dumpable process was killed");
    } finally {
      reap(children.map((child) => child.pid));
      await Promise.all(children.map((child) => child.status));
    }
  },
});
