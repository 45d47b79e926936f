/** Startup reaping kills only our own user's processes: another user's process may carry any marker it likes. */
import assert from "node:assert/strict";
import { spawnStdio } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { os } from "../../../lib/platform/mod.ts";
import { isAlive, reap, waitFor } from "./processes.ts";

Deno.test({
  name:
    "stdio: a starting server (root) leaves alone another user's process that carries a dead server's marker",
  ignore: os !== "linux" || Deno.uid() !== 0,
  fn: async () => {
    await using ws = await tempWorkspace();
    const dead = new Deno.Command("true").spawn();
    await dead.status;
    const marker = { SHELL_MCP_JOB: `${dead.pid}-0123abcd.1` };
    const spawn = (prefix: string[]) =>
      new Deno.Command(prefix[0], {
        args: [...prefix.slice(1), "sleep", "300"],
        env: marker,
        stdout: "null",
        stderr: "null",
      }).spawn();
    // Theirs (nobody's, through setpriv: no new session, so it stays our child to wait for) and, as a
    // control, ours: the control must be reaped, which proves the pass ran.
    const theirs = spawn(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]);
    const ours = spawn(["env"]);
    try {
      await using _server = await spawnStdio("shell", { cwd: ws.path });
      await waitFor("our own orphan to be reaped", async () => !await isAlive(ours.pid), 8000);
      assert.equal(await isAlive(theirs.pid), true, "another user's process was killed");
    } finally {
      reap([theirs.pid, ours.pid]);
      await Promise.all([theirs.status, ours.status]);
    }
  },
});
