/**
 * Startup reaping kills only our own user's processes: another user's process may carry any marker it likes.
 * Ownership is the real and effective uid, not the owner of /proc/<pid>/environ, which is root for any
 * non-dumpable process (prctl, setuid programs) whoever runs it.
 */
import assert from "node:assert/strict";
import { spawnStdio } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { environOwner, nobodySleeper } from "../../_support/foreign_process.ts";
import { os } from "../../../lib/platform/mod.ts";
import { isAlive, reap, waitFor } from "./processes.ts";

Deno.test({
  name:
    "stdio: a starting server (root) leaves alone another user's processes, dumpable or not, that carry a dead server's marker",
  ignore: os !== "linux" || Deno.uid() !== 0,
  fn: async () => {
    await using ws = await tempWorkspace();
    const dead = new Deno.Command("true").spawn();
    await dead.status;
    const marker = { SHELL_MCP_JOB: `${dead.pid}-0123abcd.1` };
    const theirs = await nobodySleeper(marker);
    const hidden = await nobodySleeper(marker, { nonDumpable: true });
    // As a control, ours: it must be reaped, which proves the pass ran.
    const ours = new Deno.Command("sleep", { args: ["300"], env: marker, stdout: "null", stderr: "null" })
      .spawn();
    const all = [theirs, hidden, ours];
    try {
      assert.equal(await environOwner(hidden.pid), 0, "the attack needs an environ file owned by root");
      await using _server = await spawnStdio("shell", { cwd: ws.path });
      await waitFor("our own orphan to be reaped", async () => !await isAlive(ours.pid), 8000);
      assert.equal(await isAlive(theirs.pid), true, "another user's process was killed");
      assert.equal(await isAlive(hidden.pid), true, "another user's non-dumpable process was killed");
    } finally {
      reap(all.map((child) => child.pid));
      await Promise.all(all.map((child) => child.status));
    }
  },
});
