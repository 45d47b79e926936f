/**
 * Journals whose file is gone: a journal is found by its file's device + inode, so once every name of the
 * file is deleted (or its name holds another file) no locked run meets it again. Startup recovery and each
 * write's cleanup visit every journal in the lock folder instead, and remove those, never touching a file that
 * is not the journal's. Recovery runs in a child process here, so its log lines can be read.
 */
import assert from "node:assert/strict";
import { journalPath, saveJournal } from "../../../lib/fs/journal.ts";
import { FileLocks } from "../../../lib/fs/file_lock.ts";
import { writeFile } from "../../../lib/fs/file_write.ts";
import { identityOf } from "../../../lib/fs/lock_keys.ts";
import { prepareLockDir } from "../../../lib/fs/lock_dir.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { type TempWorkspace, tempWorkspace } from "../../_support/workspace.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const OLD = "old old old old\n";
const NEXT = "new text, a little longer\n";
/** What the file holds when its writer was killed after 7 new bytes. */
const TORN = NEXT.slice(0, 7) + OLD.slice(7);
const RECOVER = new URL("../../../lib/fs/recover.ts", import.meta.url).href;
const FILE_LOCK = new URL("../../../lib/fs/file_lock.ts", import.meta.url).href;

async function workspace(files: Record<string, string>): Promise<TempWorkspace> {
  const ws = await tempWorkspace({ "locks/": "", ...files });
  await Deno.chmod(ws.join("locks"), 0o700); // A lock folder must be private.
  return ws;
}

/** Plans the journal a writer of `path` killed mid-write leaves (the file holds {@link TORN}); its path. */
async function killedWrite(ws: TempWorkspace, path: string): Promise<string> {
  const dir = await prepareLockDir(ws.join("locks"), "test");
  const key = (await identityOf(path))!;
  await saveJournal(dir, key, { path, mode: null, mtime: null, old: bytes(OLD), next: bytes(NEXT) });
  return await journalPath(dir.path, key);
}

/** Runs startup recovery over the test's lock folder in a child process; returns what it logged. */
async function recover(ws: TempWorkspace): Promise<string[]> {
  const script = `import { recoverInterruptedWrites } from ${JSON.stringify(RECOVER)};
import { FileLocks } from ${JSON.stringify(FILE_LOCK)};
await recoverInterruptedWrites(new FileLocks({ dir: ${JSON.stringify(ws.join("locks"))} }));`;
  const { success, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", script],
    stdout: "null",
    stderr: "piped",
  }).output();
  const lines = new TextDecoder().decode(stderr).split("\n").filter(Boolean);
  assert.ok(success, lines.join("\n"));
  return lines;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test({
  name: "recovery removes the journal of a hard-linked file whose names were all deleted after a killed " +
    "in-place write, with one log line",
  ignore: isWindows,
  async fn() {
    await using ws = await workspace({ "a.txt": TORN });
    await Deno.link(ws.join("a.txt"), ws.join("b.txt"));
    const journal = await killedWrite(ws, ws.join("a.txt"));
    await Deno.remove(ws.join("a.txt"));
    await Deno.remove(ws.join("b.txt"));
    const logged = await recover(ws);
    assert.equal(await exists(journal), false, "the journal is gone");
    assert.equal(logged.length, 1, logged.join("\n"));
    assert.match(
      logged[0],
      /^\[info\] dropped the journal of an interrupted write of ".*\/a\.txt": the file is gone/,
    );
  },
});

Deno.test({
  name: "recovery completes a killed write through another name in the folder when the name it wrote is gone",
  ignore: isWindows,
  async fn() {
    await using ws = await workspace({ "a.txt": TORN });
    await Deno.link(ws.join("a.txt"), ws.join("b.txt"));
    const journal = await killedWrite(ws, ws.join("a.txt"));
    await Deno.remove(ws.join("a.txt"));
    const logged = await recover(ws);
    assert.equal(await Deno.readTextFile(ws.join("b.txt")), NEXT);
    assert.equal(await exists(journal), false);
    assert.match(logged.join("\n"), /completed an interrupted in-place write of ".*\/b\.txt"/);
  },
});

Deno.test({
  name: "recovery drops the journal when its path now holds another file, and leaves that file alone even " +
    "when it looks torn",
  ignore: isWindows,
  async fn() {
    await using ws = await workspace({ "a.txt": TORN, "copy.txt": TORN });
    const journal = await killedWrite(ws, ws.join("a.txt"));
    // A writer that takes no lock (an editor, git) replaced the file by a rename: another inode, same bytes.
    await Deno.rename(ws.join("copy.txt"), ws.join("a.txt"));
    const logged = await recover(ws);
    assert.equal(await Deno.readTextFile(ws.join("a.txt")), TORN, "not the journal's file: untouched");
    assert.equal(await exists(journal), false);
    assert.equal(logged.length, 1, logged.join("\n"));
    assert.match(logged[0], /dropped the journal of an interrupted write of ".*\/a\.txt": the file is gone/);
  },
});

Deno.test({
  name: "recovery removes a journal of an older version (no key in its header) whose file is gone",
  ignore: isWindows,
  async fn() {
    await using ws = await workspace({ "a.txt": TORN });
    const key = (await identityOf(ws.join("a.txt")))!;
    const journal = await journalPath(ws.join("locks"), key);
    const head = JSON.stringify({
      v: 1,
      path: ws.join("a.txt"),
      mode: null,
      mtime: null,
      old: OLD.length,
      next: NEXT.length,
    });
    await Deno.writeTextFile(journal, `${head}\n${OLD}${NEXT}`, { mode: 0o600 });
    await Deno.remove(ws.join("a.txt"));
    const logged = await recover(ws);
    assert.equal(await exists(journal), false);
    assert.equal(logged.length, 1, logged.join("\n"));
  },
});

Deno.test({
  name: "a write's cleanup removes a dead writer's journal whose file is gone, never one whose writer lives",
  ignore: isWindows,
  async fn() {
    await using ws = await workspace({ "a.txt": TORN, "c.txt": "c\n" });
    const writer = new FileLocks({ dir: ws.join("locks") });
    const other = new FileLocks({ dir: ws.join("locks") });
    const write = (text: string) =>
      other.run(ws.join("c.txt"), () =>
        writeFile(ws.join("c.txt"), bytes(text), {
          locks: other,
          action: "Cannot write",
          display: "c.txt",
          roots: [],
        }));
    let journal = "";
    await writer.run(ws.join("a.txt"), async () => {
      // A live writer's journal, its file deleted under it: the writer still holds the file's lock.
      journal = await killedWrite(ws, ws.join("a.txt"));
      await Deno.remove(ws.join("a.txt"));
      await write("c1\n");
      assert.equal(await exists(journal), true, "a live writer's journal is left alone");
    });
    // The run ended without removing its journal, as a killed writer would.
    await write("c2\n");
    assert.equal(await exists(journal), false, "the dead writer's journal is removed by the next write");
    assert.equal(await Deno.readTextFile(ws.join("c.txt")), "c2\n");
  },
});

Deno.test({
  name: "recovery removes the half-saved journal (.part) of a writer killed while saving it, file untouched",
  ignore: isWindows,
  async fn() {
    await using ws = await workspace({ "a.txt": OLD });
    const key = (await identityOf(ws.join("a.txt")))!;
    const part = `${await journalPath(ws.join("locks"), key)}.part`;
    const head = JSON.stringify({
      v: 1,
      path: ws.join("a.txt"),
      key,
      mode: null,
      mtime: null,
      old: 16,
      next: 26,
    });
    await Deno.writeTextFile(part, `${head}\n${OLD.slice(0, 5)}`, { mode: 0o600 });
    const logged = await recover(ws);
    assert.equal(await exists(part), false);
    assert.equal(await Deno.readTextFile(ws.join("a.txt")), OLD);
    assert.equal(logged.length, 1, logged.join("\n"));
    assert.match(logged[0], /removed ".*\.journal\.part", the unfinished journal of a killed writer/);
  },
});
