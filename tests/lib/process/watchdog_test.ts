/** The watchdog with real processes: EOF on its pipe (its parent's death) kills exactly what it was told to. */
import assert from "node:assert/strict";
import { isWindows, os, processRules } from "../../../lib/platform/mod.ts";
import { GroupWatchdog } from "../../../lib/process/watchdog.ts";
import { isAlive, reap, waitFor } from "../../mcp/shell/processes.ts";
import { environOwner, nobodySleeper } from "../../_support/foreign_process.ts";

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

Deno.test({
  name: "at EOF the watchdog kills listed orphans and their descendants, even unmarked in their own session",
  ignore: os !== "linux",
  fn: async () => {
    // A stands for an orphan the server adopted; B, its child, left A's session and carries no marker.
    const tree = new Deno.Command("sh", {
      args: ["-c", "setsid sleep 300 & echo $!; exec sleep 301"],
      detached: true,
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const forgotten = sleeper();
    const reader = tree.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const child = Number((await reader.read()).value?.trim());
    reader.releaseLock();
    const argv = processRules.watchdogArgv("^WATCHDOG_TEST_NONE=")!;
    const watchdog = new Deno.Command(argv[0], { args: argv.slice(1), stdin: "piped", detached: true })
      .spawn();
    try {
      const writer = watchdog.stdin.getWriter();
      await writer.write(new TextEncoder().encode(`r ${tree.pid}\nr ${forgotten.pid}\nx ${forgotten.pid}\n`));
      await writer.close();
      assert.equal((await watchdog.status).code, 0);
      await waitFor("the orphan and its descendant to die", async () => {
        return !await isAlive(tree.pid) && !await isAlive(child);
      });
      assert.equal(await isAlive(forgotten.pid), true, "a forgotten orphan was killed");
    } finally {
      reap([tree.pid, child, forgotten.pid]);
      await tree.stdout.cancel().catch(() => {});
      await Promise.all([tree.status, forgotten.status]);
    }
  },
});

/** `unshare --pid` (root here): a PID namespace of our own, where the next pid can be chosen. */
const canUnshare = os === "linux" && Deno.uid() === 0 &&
  (await new Deno.Command("unshare", { args: ["--pid", "--fork", "--mount-proc", "true"], stderr: "null" })
    .output().then((out) => out.success, () => false));

Deno.test({
  name: "at EOF the watchdog leaves a group whose number a new process took after ours ended (Linux, root)",
  ignore: !canUnshare,
  fn: async () => {
    // In a fresh PID namespace: our group's leader ends, then another process is given its pid and leads
    // a group of the same number. Signalling that number would hit a process that is not ours.
    const script = [
      `mkfifo "$DIR/pipe"`,
      `sh -c "$WATCHDOG" watchdog "^WATCHDOG_TEST_NONE=" < "$DIR/pipe" & dog=$!`,
      `exec 3> "$DIR/pipe"`,
      // 3>&-: only this script may hold the watchdog's pipe, or its EOF would never come.
      `setsid sleep 60 3>&- & ours=$!`,
      `echo "+ $ours" >&3`,
      // More than a pipe holds: once written, the watchdog has read our line (and noted the start time).
      `yes "+ 0" | head -n 20000 >&3`,
      `kill $ours; wait $ours`,
      `echo $((ours - 1)) > /proc/sys/kernel/ns_last_pid`,
      `setsid sleep 60 3>&- & other=$!`,
      `[ "$other" = "$ours" ] || { echo "pid not reused: $ours $other"; exit 1; }`,
      `exec 3>&-; wait $dog`,
      `kill -0 $other && echo "survived" || echo "killed"`,
      `kill -9 $other`,
    ].join("\n");
    const dir = await Deno.makeTempDir();
    try {
      const out = await new Deno.Command("unshare", {
        args: ["--pid", "--fork", "--mount-proc", "sh", "-c", script],
        env: { DIR: dir, WATCHDOG: processRules.watchdogArgv("x")![2] },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      assert.match(text, /^survived$/m, text);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "at EOF the watchdog (root) leaves another user's marked processes alone, non-dumpable ones too",
  ignore: os !== "linux" || Deno.uid() !== 0,
  fn: async () => {
    // The marker pattern is in the watchdog's argv, which every user can read (ps).
    const mark = { WATCHDOG_TEST_MARK: "b.1" };
    const theirs = await nobodySleeper(mark);
    const hidden = await nobodySleeper(mark, { nonDumpable: true });
    const ours = sleeper(mark);
    const children = [theirs, hidden, ours];
    const argv = processRules.watchdogArgv("^WATCHDOG_TEST_MARK=b\\.")!;
    const watchdog = new Deno.Command(argv[0], { args: argv.slice(1), stdin: "piped", detached: true })
      .spawn();
    try {
      assert.equal(await environOwner(hidden.pid), 0, "the attack needs an environ file owned by root");
      await watchdog.stdin.close();
      assert.equal((await watchdog.status).code, 0);
      await waitFor("our marked process to die", async () => !await isAlive(ours.pid));
      assert.equal(await isAlive(theirs.pid), true, "another user's process was killed");
      assert.equal(await isAlive(hidden.pid), true, "another user's non-dumpable process was killed");
    } finally {
      reap(children.map((child) => child.pid));
      await Promise.all(children.map((child) => child.status));
    }
  },
});
