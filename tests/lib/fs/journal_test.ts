import assert from "node:assert/strict";
import { classify, journalPath, saveJournal } from "../../../lib/fs/journal.ts";
import { FileLocks } from "../../../lib/fs/file_lock.ts";
import { identityOf } from "../../../lib/fs/lock_keys.ts";
import { prepareLockDir } from "../../../lib/fs/lock_dir.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("classify: every cut of an in-place write is torn; the ends are old and next; others are other", () => {
  for (const [old, next] of [["aaaaaaaa", "bbbbbbbbbbbb"], ["aaaaaaaaaaaa", "bbbb"], ["abcabc", "abdabd"]]) {
    const [o, n] = [bytes(old), bytes(next)];
    assert.equal(classify(o, o, n), "old");
    assert.equal(classify(n, o, n), "next");
    for (let k = 1; k <= n.length; k++) {
      // What the file holds after k new bytes, before the final cut to length.
      const current = new Uint8Array([...n.subarray(0, k), ...o.subarray(Math.min(k, o.length))]);
      const state = classify(current, o, n);
      // A cut that only wrote bytes old already had leaves old: nothing to complete.
      assert.ok(state !== "other", `${old} → ${next}, cut at ${k}: ${state}`);
    }
  }
  assert.equal(classify(bytes("zzzzzzzz"), bytes("aaaaaaaa"), bytes("bbbbbbbbbbbb")), "other");
  assert.equal(classify(bytes("bbbbaaaaX"), bytes("aaaaaaaa"), bytes("bbbbbbbbbbbb")), "other");
  assert.equal(classify(bytes(""), bytes("aaaa"), bytes("bbbb")), "other");
});

/** Plants the journal a writer killed after `cut` new bytes would leave, and that file state. */
async function killedWrite(locksDir: string, path: string, old: string, next: string, current: string) {
  const dir = await prepareLockDir(locksDir, "test");
  await Deno.writeTextFile(path, current);
  const key = (await identityOf(path))!;
  await saveJournal(dir, key, { path, mode: null, mtime: null, old: bytes(old), next: bytes(next) });
  return await journalPath(dir.path, key);
}

Deno.test({
  name: "a locked run first completes a torn in-place write it finds a journal of, then drops the journal",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "locks/": "" });
    await Deno.chmod(ws.join("locks"), 0o700); // A lock folder must be private.
    const path = ws.join("a.txt");
    const journal = await killedWrite(
      ws.join("locks"),
      path,
      "old old old\n",
      "new text, longer\n",
      "new tld old\n",
    );
    const locks = new FileLocks({ dir: ws.join("locks") });
    assert.equal(await locks.run(path, () => Deno.readTextFile(path)), "new text, longer\n");
    await assert.rejects(Deno.stat(journal), Deno.errors.NotFound);
  },
});

Deno.test({
  name: "a journal that does not describe the file (changed since, or a reused inode) leaves it alone",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "locks/": "" });
    await Deno.chmod(ws.join("locks"), 0o700); // A lock folder must be private.
    const path = ws.join("a.txt");
    const journal = await killedWrite(
      ws.join("locks"),
      path,
      "old old old\n",
      "new new new\n",
      "someone else\n",
    );
    const locks = new FileLocks({ dir: ws.join("locks") });
    assert.equal(await locks.run(path, () => Deno.readTextFile(path)), "someone else\n");
    await assert.rejects(Deno.stat(journal), Deno.errors.NotFound);
  },
});

Deno.test({
  name: "a journal whose write never touched the file (killed before) leaves the old content",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "locks/": "" });
    await Deno.chmod(ws.join("locks"), 0o700); // A lock folder must be private.
    const path = ws.join("a.txt");
    await killedWrite(ws.join("locks"), path, "old\n", "new\n", "old\n");
    const locks = new FileLocks({ dir: ws.join("locks") });
    assert.equal(await locks.run(path, () => Deno.readTextFile(path)), "old\n");
  },
});
