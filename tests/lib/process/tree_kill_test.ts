/** Tree kills with real processes: a group whose leader we already reaped is signalled only if still ours. */
import assert from "node:assert/strict";
import { isWindows } from "../../../lib/platform/mod.ts";
import { killTree } from "../../../lib/process/tree_kill.ts";
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
