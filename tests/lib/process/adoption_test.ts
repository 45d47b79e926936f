/**
 * Adoption with real processes: this test process becomes a child subreaper, so an orphan of its child is
 * its own child; it is found, reaped when it ends, and killed by killAll. Linux with --allow-ffi only.
 * @module
 */
import assert from "node:assert/strict";
import { os } from "../../../lib/platform/mod.ts";
import { adoption } from "../../../lib/process/adoption.ts";
import { listProcesses } from "../../../lib/process/processes.ts";
import { isAlive, reap, waitFor } from "../../mcp/shell/processes.ts";

/** Starts a shell that leaves `sleep 300` behind in a session of its own and exits; returns the sleep's pid. */
async function orphanOfAChild(): Promise<number> {
  const child = new Deno.Command("sh", {
    args: ["-c", "setsid sleep 300 >/dev/null 2>&1 & echo $!"],
    stdout: "piped",
    detached: true,
  }).spawn();
  // Deno reaps this one itself: registered in the turn that spawned it, as the shell server's jobs are.
  const disown = adoption.own(child.pid);
  const output = await child.output();
  disown();
  return Number(new TextDecoder().decode(output.stdout));
}

Deno.test({
  name: "an adopted orphan is ours: found, reaped once it ends, and ended by killAll (Linux, FFI)",
  ignore: os !== "linux" || Deno.permissions.querySync({ name: "ffi" }).state !== "granted",
  fn: async () => {
    assert.equal(adoption.enable(), true);
    const pids: number[] = [];
    try {
      const first = await orphanOfAChild();
      pids.push(first);
      await waitFor("the orphan to be adopted", () => {
        adoption.scan();
        return adoption.adopted.includes(first);
      });
      const row = (await listProcesses())?.find((row) => row.pid === first);
      assert.equal(row?.ppid, Deno.pid, "the orphan's parent is not this process");
      Deno.kill(first, "SIGKILL");
      // Deno reaps only its own children: without the scan the orphan would stay a zombie of this process.
      await waitFor("the orphan to be reaped", () => {
        adoption.scan();
        return !adoption.adopted.includes(first);
      });
      assert.equal((await listProcesses())?.some((row) => row.pid === first), false, "a zombie is left");
      const second = await orphanOfAChild();
      pids.push(second);
      await adoption.killAll(500);
      assert.equal(await isAlive(second), false);
      assert.deepEqual(adoption.adopted, []);
    } finally {
      reap(pids);
    }
  },
});
