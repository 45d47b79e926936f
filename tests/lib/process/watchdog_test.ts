/** The watchdog with real processes: EOF on its pipe (its parent's death) kills exactly what it was told to. */
import assert from "node:assert/strict";
import { isWindows, os, processRules } from "../../../lib/platform/mod.ts";
import { GroupWatchdog } from "../../../lib/process/watchdog.ts";
import { isAlive, reap, waitFor } from "../../mcp/shell/processes.ts";

function sleeper(env: Record<string, string> = {}): Deno.ChildProcess {
  return new Deno.Command("sleep", { args: ["300"], env, detached: true, stdout: "null", stderr: "null" })
    .spawn();
}

Deno.test({
  name: "at EOF the watchdog kills watched groups and marked processes (Linux), not unwatched groups",
  ignore: isWindows,
  fn: async () => {
    const watched = sleeper();
    const unwatched = sleeper();
    const marked = sleeper({ WATCHDOG_TEST_MARK: "a.1" });
    const children = [watched, unwatched, marked];
    const argv = processRules.watchdogArgv("^WATCHDOG_TEST_MARK=a\\.")!;
    const watchdog = new Deno.Command(argv[0], { args: argv.slice(1), stdin: "piped", detached: true })
      .spawn();
    try {
      const writer = watchdog.stdin.getWriter();
      // Junk lines are ignored: a group id must be a positive number (`-0` would be our own group).
      const lines = `+ ${watched.pid}\n+ ${unwatched.pid}\n+ 0\n+ x\n- ${unwatched.pid}\n- 123456789\n`;
      await writer.write(new TextEncoder().encode(lines));
      // What the server's death does: the pipe's only writer is gone.
      await writer.close();
      assert.equal((await watchdog.status).code, 0);
      await waitFor("the watched group to die", async () => !await isAlive(watched.pid));
      if (os === "linux") assert.equal(await isAlive(marked.pid), false);
      assert.equal(await isAlive(unwatched.pid), true);
    } finally {
      reap(children.map((child) => child.pid));
      await Promise.all(children.map((child) => child.status));
    }
  },
});

Deno.test({
  name: "GroupWatchdog.close ends the watchdog without killing anything",
  ignore: isWindows,
  fn: async () => {
    const child = sleeper();
    const watchdog = new GroupWatchdog({ markerPattern: "^WATCHDOG_TEST_NONE=", path: Deno.env.get("PATH") });
    try {
      watchdog.watch(child.pid);
      await watchdog.close();
      assert.equal(await isAlive(child.pid), true);
    } finally {
      reap([child.pid]);
      await child.status;
    }
  },
});
