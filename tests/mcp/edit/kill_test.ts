/**
 * SIGKILL of a real edit server in the middle of a big write. The window is found by watching the file system
 * (no test hook in the server): a 61 MB write takes tens of milliseconds, and a tight stat loop sees its first
 * bytes land well before the last, so the kill lands inside the write.
 */
import assert from "node:assert/strict";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { spawnStdio, type StdioConnection } from "../../_support/stdio.ts";
import { textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { waitFor } from "../../_support/poll.ts";
import { journalPath } from "../../../lib/fs/journal.ts";
import { defaultLockDir } from "../../../lib/fs/file_lock.ts";
import { identityKey } from "../../../lib/fs/lock_keys.ts";

const LINES = 950_000; // 64 bytes each: 60.8 MB, under the 64 MiB limit

function bigText(): string {
  const pad = " ".repeat(51);
  const lines: string[] = new Array(LINES);
  for (let i = 0; i < LINES; i++) lines[i] = `line ${String(i).padStart(7, "0")}${pad}\n`;
  return lines.join("");
}

function line(i: number): string {
  return `line ${String(i).padStart(7, "0")}${" ".repeat(51)}\n`;
}

/** Starts an edit, returns once `started()` holds (polled without pause), then kills the server. */
async function killDuring(
  server: StdioConnection,
  args: Record<string, unknown>,
  started: () => Promise<boolean>,
): Promise<void> {
  const call = server.client.callTool({ name: "edit_file", arguments: args }).catch(() => undefined);
  const deadline = performance.now() + 60_000;
  while (!(await started())) {
    if (performance.now() > deadline) throw new Error("the write never started");
  }
  Deno.kill(server.pid!, "SIGKILL");
  await call;
  await Promise.resolve(server[Symbol.asyncDispose]()).catch(() => {});
}

async function edit(server: StdioConnection, path: string, old: string, next: string): Promise<string> {
  const result = await server.client.callTool({
    name: "edit_file",
    arguments: { path, edits: [{ old_text: old, new_text: next }] },
  }) as CallToolResult;
  assert.equal(result.isError, undefined, textOf(result));
  return textOf(result);
}

async function temps(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) if (entry.name.endsWith(".tmp")) names.push(entry.name);
  return names;
}

Deno.test({
  name: "stdio: SIGKILL during an in-place write of a hard-linked 61 MB file: never truncated, the next " +
    "write completes it under both names",
  ignore: isWindows,
  async fn() {
    const old = bigText();
    await using ws = await tempWorkspace({ "big.txt": old });
    await Deno.link(ws.join("big.txt"), ws.join("twin.txt"));
    const before = await Deno.stat(ws.join("big.txt"));
    const first = await spawnStdio("edit", { cwd: ws.path });
    // Inserting a line shifts every byte after it: a torn file is neither the old nor the new content.
    await killDuring(first, {
      path: "big.txt",
      edits: [{ old_text: line(0), new_text: `inserted\n${line(0)}` }],
    }, async () => {
      const now = await Deno.stat(ws.join("big.txt"));
      return now.size !== before.size || now.mtime!.getTime() !== before.mtime!.getTime();
    });
    const after = await Deno.stat(ws.join("twin.txt"));
    // Cut off mid-write (usually) but never truncated: the new bytes overwrite the old ones, then cut last.
    assert.ok(after.size >= before.size, `${after.size} bytes left of ${before.size}`);
    assert.equal(after.ino, before.ino, "the hard link is kept");
    assert.equal(after.nlink, 2);
    // The next write of the file, through its other name, first completes the interrupted one.
    await using second = await spawnStdio("edit", { cwd: ws.path });
    await edit(second, "twin.txt", line(1), `${line(1).trimEnd()} second\n`);
    const expected = `inserted\n${line(0)}${line(1).trimEnd()} second\n${old.slice(2 * line(0).length)}`;
    const text = await Deno.readTextFile(ws.join("big.txt"));
    assert.equal(text.length, expected.length, "the file holds the whole new content");
    assert.ok(text === expected, "the interrupted write was completed, then the next edit applied");
    assert.equal((await Deno.stat(ws.join("twin.txt"))).ino, before.ino);
    assert.equal((await Deno.stat(ws.join("twin.txt"))).nlink, 2);
    assert.deepEqual(await temps(ws.path), []);
  },
});

Deno.test({
  name: "stdio: after a SIGKILL mid in-place write, the next edit server to start completes it by itself",
  ignore: isWindows,
  async fn() {
    const old = bigText();
    await using ws = await tempWorkspace({ "big.txt": old });
    await Deno.link(ws.join("big.txt"), ws.join("twin.txt"));
    const before = await Deno.stat(ws.join("big.txt"));
    await killDuring(await spawnStdio("edit", { cwd: ws.path }), {
      path: "big.txt",
      edits: [{ old_text: line(0), new_text: `inserted\n${line(0)}` }],
    }, async () => (await Deno.stat(ws.join("big.txt"))).mtime!.getTime() !== before.mtime!.getTime());
    await using _restarted = await spawnStdio("edit", { cwd: ws.path });
    const expected = `inserted\n${old}`;
    await waitFor("the restarted server to complete the write", async () => {
      const info = await Deno.stat(ws.join("twin.txt"));
      return info.size === expected.length && await Deno.readTextFile(ws.join("twin.txt")) === expected;
    }, 60_000);
    assert.equal((await Deno.stat(ws.join("big.txt"))).nlink, 2);
  },
});

Deno.test({
  name: "stdio: SIGKILL during a rename write leaves a temp file; the next write in that folder removes it",
  ignore: isWindows,
  async fn() {
    const old = bigText();
    await using ws = await tempWorkspace({ "big.txt": old, "small.txt": "small\n" });
    // The temp file lives for the whole 61 MB write and flush; should a loaded machine let the write finish
    // before the kill lands, the rename is complete and there is nothing to test: set the file back, again.
    for (let attempt = 0; (await temps(ws.path)).length === 0; attempt++) {
      assert.ok(attempt < 3, "three kills in a row came after the write had finished");
      await Deno.writeTextFile(ws.join("big.txt"), old);
      await killDuring(await spawnStdio("edit", { cwd: ws.path }), {
        path: "big.txt",
        edits: [{ old_text: line(0), new_text: `inserted\n${line(0)}` }],
      }, async () => (await temps(ws.path)).length > 0);
    }
    assert.equal((await temps(ws.path)).length, 1, "the killed write left its temp file");
    assert.ok(await Deno.readTextFile(ws.join("big.txt")) === old, "the file itself is untouched");
    await using second = await spawnStdio("edit", { cwd: ws.path });
    await edit(second, "small.txt", "small", "smaller");
    assert.deepEqual(await temps(ws.path), [], "the dead writer's temp file is gone");
    assert.equal(await Deno.readTextFile(ws.join("small.txt")), "smaller\n");
  },
});

Deno.test({
  // Any edit server's start or write sweeps the shared lock folder, so under a parallel test run another
  // test's server may drop this journal first: the test asserts that it goes, not who logs it (the one log
  // line is asserted in tests/lib/fs/journal_sweep_test.ts, over a private lock folder).
  name: "stdio: a SIGKILL mid in-place write of a hard-linked file, then both names deleted: the 120 MB " +
    "journal is gone once the next edit server has started and written",
  ignore: isWindows,
  async fn() {
    const old = bigText();
    await using ws = await tempWorkspace({ "big.txt": old, "small.txt": "small\n" });
    await Deno.link(ws.join("big.txt"), ws.join("twin.txt"));
    const journal = await journalPath(
      await defaultLockDir(),
      identityKey(await Deno.stat(ws.join("big.txt")))!,
    );
    const exists = () => Deno.stat(journal).then(() => true, () => false);
    // Should a loaded machine let the write finish before the kill lands, there is no journal: again.
    for (let attempt = 0; !await exists(); attempt++) {
      assert.ok(attempt < 3, "three kills in a row came after the write had finished");
      await Deno.writeTextFile(ws.join("big.txt"), old); // In place: the link stays.
      const before = await Deno.stat(ws.join("big.txt"));
      await killDuring(await spawnStdio("edit", { cwd: ws.path }), {
        path: "big.txt",
        edits: [{ old_text: line(0), new_text: `inserted\n${line(0)}` }],
      }, async () => (await Deno.stat(ws.join("big.txt"))).mtime!.getTime() !== before.mtime!.getTime());
    }
    await Deno.remove(ws.join("big.txt"));
    await Deno.remove(ws.join("twin.txt"));
    await using restarted = await spawnStdio("edit", { cwd: ws.path });
    await edit(restarted, "small.txt", "small", "smaller");
    await waitFor("the restarted server to remove the journal", async () => !await exists(), 60_000);
  },
});
