import assert from "node:assert/strict";
import { FileLocks } from "../../../lib/fs/file_lock.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { waitFor } from "../../_support/poll.ts";

const MODULE = new URL("../../../lib/fs/file_lock.ts", import.meta.url).href;

/** A separate process that takes the lock of `path` and holds it until it is killed (or its stdin closes). */
async function spawnHolder(dir: string, path: string) {
  const code = `import { FileLocks } from ${JSON.stringify(MODULE)};
await new FileLocks({ dir: ${JSON.stringify(dir)} }).run(${JSON.stringify(path)}, async () => {
  console.log("locked");
  await Deno.stdin.read(new Uint8Array(1));
});`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", code],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("locked")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`The lock holder exited early: ${seen}`);
    seen += value;
  }
  return {
    async kill() {
      child.kill("SIGKILL");
      await child.status;
      reader.releaseLock();
      await child.stdout.cancel().catch(() => {});
      await child.stdin.close().catch(() => {});
    },
  };
}

Deno.test("FileLocks: another process's lock makes a run time out; killing the holder frees it", async () => {
  await using ws = await tempWorkspace({ "a.txt": "a\n" });
  const holder = await spawnHolder(ws.join("locks"), ws.join("a.txt"));
  try {
    const locks = new FileLocks({ dir: ws.join("locks"), timeoutMs: 200 });
    let ran = false;
    await assert.rejects(
      locks.run(ws.join("a.txt"), () => Promise.resolve(ran = true), { action: 'Cannot edit "a.txt"' }),
      (error: Error & { code?: string }) =>
        error.code === "timeout" &&
        /^Cannot edit "a\.txt": another process has held the file's lock for 0\.2 s; try again/.test(
          error.message,
        ),
    );
    assert.equal(ran, false);
  } finally {
    await holder.kill();
  }
  // The OS dropped the dead holder's lock: no stale lock file to clean up by hand.
  const locks = new FileLocks({ dir: ws.join("locks"), timeoutMs: 10_000 });
  assert.equal(await locks.run(ws.join("a.txt"), () => Promise.resolve("ran")), "ran");
});

Deno.test("FileLocks: runs on one path in one process take turns in call order", async () => {
  await using ws = await tempWorkspace();
  const locks = new FileLocks({ dir: ws.join("locks") });
  const events: string[] = [];
  let release: (() => void) | undefined;
  const first = locks.run(ws.join("a"), async () => {
    events.push("a1 start");
    await new Promise<void>((done) => release = done);
    events.push("a1 end");
  });
  const second = locks.run(ws.join("a"), () => Promise.resolve(events.push("a2")));
  // Another path may share a's lock file (one in 256): it then waits too, so only its completion is checked.
  const other = locks.run(ws.join("b"), () => Promise.resolve(events.push("b")));
  await waitFor("the first run to start", () => release !== undefined);
  assert.deepEqual(events.filter((event) => event !== "b"), ["a1 start"], "a2 waits for a1");
  release!();
  await Promise.all([first, second, other]);
  assert.deepEqual(events.filter((event) => event !== "b"), ["a1 start", "a1 end", "a2"]);
  assert.ok(events.includes("b"));
});

Deno.test("FileLocks: a lock folder that does not exist yet is created", async () => {
  await using ws = await tempWorkspace();
  const locks = new FileLocks({ dir: ws.join("deep", "locks") });
  assert.equal(await locks.run(ws.join("x"), () => Promise.resolve(1)), 1);
  assert.equal((await Deno.stat(ws.join("deep", "locks"))).isDirectory, true);
});

Deno.test("FileLocks.runAll: paths that share a lock file take it once (300 paths over 256 files)", async () => {
  await using ws = await tempWorkspace();
  const locks = new FileLocks({ dir: ws.join("locks"), timeoutMs: 2_000 });
  const paths = Array.from({ length: 300 }, (_, i) => ws.join(`f${i}.txt`));
  assert.equal(await locks.runAll(paths, () => Promise.resolve("ran")), "ran");
  // Everything was released: a single path's lock is free again.
  assert.equal(await locks.run(paths[299], () => Promise.resolve("again")), "again");
});

Deno.test("FileLocks.runAll: a run on one of its paths waits for it, in one process", async () => {
  await using ws = await tempWorkspace();
  const locks = new FileLocks({ dir: ws.join("locks") });
  const order: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((done) => release = done);
  const all = locks.runAll([ws.join("b.txt"), ws.join("a.txt")], async () => {
    order.push("all");
    await held;
    order.push("all done");
  });
  const single = locks.run(ws.join("a.txt"), () => Promise.resolve(void order.push("single")));
  await waitFor("runAll to start", () => order.length > 0);
  release();
  await Promise.all([all, single]);
  assert.deepEqual(order, ["all", "all done", "single"]);
});

Deno.test({
  name: "FileLocks: two hard-link names of one file share its lock across processes",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "a.txt": "a\n", "locks/": "" });
    await Deno.chmod(ws.join("locks"), 0o700); // A lock folder must be private.
    await Deno.link(ws.join("a.txt"), ws.join("b.txt"));
    const holder = await spawnHolder(ws.join("locks"), ws.join("a.txt"));
    try {
      const locks = new FileLocks({ dir: ws.join("locks"), timeoutMs: 200 });
      await assert.rejects(
        locks.run(ws.join("b.txt"), () => Promise.resolve("ran")),
        (error: Error & { code?: string }) => error.code === "timeout",
      );
    } finally {
      await holder.kill();
    }
    const locks = new FileLocks({ dir: ws.join("locks") });
    assert.equal(await locks.run(ws.join("b.txt"), () => Promise.resolve("ran")), "ran");
  },
});
