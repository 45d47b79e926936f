import assert from "node:assert/strict";
import { editFixture, utf8 } from "./fixture.ts";
import { sha256Hex } from "../../../lib/fs/sha256.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

const isRoot = Deno.uid() === 0;
const RENAME = { "old_text": "formatTotal", "new_text": "formatMoney", "replace_all": true };
const FILES = {
  "src/format.js": "export function formatTotal(n) {\n  return `$${n}`;\n}\n",
  "src/cart.js": 'import { formatTotal } from "./format.js";\nexport const show = (n) => formatTotal(n);\n',
  "test/format.test.js": 'import { formatTotal } from "../src/format.js";\nformatTotal(1);\n',
};

/** Makes `folder` refuse new files: immutable for root (chattr), mode 555 for anyone else; returns the undo. */
async function lockFolder(folder: string): Promise<() => Promise<void>> {
  if (!isRoot) {
    await Deno.chmod(folder, 0o555);
    return () => Deno.chmod(folder, 0o755);
  }
  await chattr("+i", folder);
  return () => chattr("-i", folder);
}

async function chattr(flag: string, path: string): Promise<void> {
  const out = await new Deno.Command("chattr", { args: [flag, path], stdout: "null", stderr: "null" })
    .output();
  if (!out.success) throw new Error(`chattr ${flag} failed`);
}

/** Root ignores mode bits: only an immutable folder (chattr, ext4/xfs/btrfs, CAP_LINUX_IMMUTABLE) refuses it. */
async function canLockFolder(): Promise<boolean> {
  if (isWindows) return false;
  if (!isRoot) return true;
  const probe = await Deno.makeTempDir();
  try {
    await chattr("+i", probe);
    await chattr("-i", probe);
    return true;
  } catch {
    return false;
  } finally {
    await Deno.remove(probe).catch(() => {});
  }
}

const folderLockable = await canLockFolder();

Deno.test("one call edits several files, each with its own report and global edit indices", async () => {
  await using f = await editFixture({ ...FILES, "README.md": "Use formatTotal.\n" });
  const text = await f.edit("README.md", [
    { ...RENAME, path: "src/format.js" },
    { ...RENAME, path: "src/cart.js" },
    { ...RENAME, path: "test/format.test.js" },
    { old_text: "formatTotal", new_text: "formatMoney" }, // no path: the call's
  ]);
  for (const path of [...Object.keys(FILES), "README.md"]) {
    assert.equal(
      await f.read(path),
      path === "README.md" ? "Use formatMoney.\n" : FILES[path as keyof typeof FILES]
        .replaceAll("formatTotal", "formatMoney"),
    );
  }
  const heads = text.split("\n").filter((line) => line.startsWith("Edited "));
  assert.deepEqual(heads, [
    "Edited src/format.js: 1 edit, +1 -1 lines",
    "Edited src/cart.js: 1 edit, 2 replacements, +2 -2 lines",
    "Edited test/format.test.js: 1 edit, 2 replacements, +2 -2 lines",
    "Edited README.md: 1 edit, +1 -1 lines",
  ]);
  assert.match(text, /edit 2 exact, 2 replacements, lines 1, 2\n@@ edit 2 @@/);
  const hashes = [...text.matchAll(/sha256_after: ([0-9a-f]{64})/g)].map((m) => m[1]);
  assert.deepEqual(hashes, [
    await sha256Hex(await f.bytes("src/format.js")),
    await sha256Hex(await f.bytes("src/cart.js")),
    await sha256Hex(await f.bytes("test/format.test.js")),
    await sha256Hex(await f.bytes("README.md")),
  ]);
});

Deno.test("a failing edit in the second file writes nothing and names the file and the edit", async () => {
  await using f = await editFixture({ "a.txt": "alpha\n", "b.txt": "beta\n" });
  const failure = await f.fail("edit_file", {
    edits: [
      { path: "a.txt", old_text: "alpha", new_text: "ALPHA" },
      { path: "b.txt", old_text: "gamma", new_text: "GAMMA" },
    ],
  });
  assert.equal(failure.kind, "no_match");
  assert.match(failure.text, /^Error \[not_found\]: Cannot edit "b\.txt": edit 1: old_text not found/);
  assert.match(failure.text, /\nNothing was written: all 2 files of the call are unchanged$/);
  assert.equal(await f.read("a.txt"), "alpha\n");
  assert.equal(await f.read("b.txt"), "beta\n");
  assert.deepEqual(await f.leftovers(), []);
});

Deno.test("failures in several files come back together, coded by the first failing file", async () => {
  await using f = await editFixture({ "a.txt": "x x\n", "b.txt": "beta\n" });
  const failure = await f.fail("edit_file", {
    edits: [
      { path: "a.txt", old_text: "x", new_text: "y" },
      { path: "missing.txt", old_text: "q", new_text: "r" },
      { path: "b.txt", old_text: "beta", new_text: "BETA" },
    ],
  });
  assert.equal(failure.kind, "ambiguous");
  assert.match(failure.text, /Cannot edit "a\.txt": edit 0: /);
  assert.match(failure.text, /\nCannot edit "missing\.txt": no such file/);
  assert.match(failure.text, /Nothing was written: all 3 files of the call are unchanged$/);
  assert.equal(await f.read("b.txt"), "beta\n");
});

Deno.test("dry_run over several files writes nothing and returns every file's diff", async () => {
  await using f = await editFixture({ "a.txt": "one\n", "b.txt": "two\n" });
  const text = await f.edit("a.txt", [
    { old_text: "one", new_text: "1" },
    { path: "b.txt", old_text: "two", new_text: "2" },
    { path: "new/c.txt", old_text: "", new_text: "three\n" },
  ], { dry_run: true });
  assert.match(text, /^Dry run, nothing written: a\.txt would get 1 edit/);
  assert.match(text, /--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1,1 \+1,1 @@\n-one\n\+1\n/);
  assert.match(text, /\nDry run, nothing written: b\.txt would get 1 edit/);
  assert.match(text, /--- a\/b\.txt\n\+\+\+ b\/b\.txt\n@@ -1,1 \+1,1 @@\n-two\n\+2\n/);
  assert.match(text, /\nDry run, nothing written: would create new\/c\.txt \(6 bytes, 1 line\)/);
  assert.equal(await f.read("a.txt"), "one\n");
  assert.equal(await f.read("b.txt"), "two\n");
  await assert.rejects(Deno.stat(f.join("new")), Deno.errors.NotFound);
});

Deno.test("a path outside the workspace in any edit refuses the whole call", async () => {
  await using f = await editFixture({ "a.txt": "one\n" });
  for (const outside of ["../outside.txt", "/etc/hostname"]) {
    const failure = await f.fail("edit_file", {
      path: "a.txt",
      edits: [{ old_text: "one", new_text: "1" }, { path: outside, old_text: "x", new_text: "y" }],
    });
    assert.equal(failure.kind, "outside_workspace");
    assert.match(
      failure.text,
      new RegExp(`Cannot edit "${outside.replaceAll(".", "\\.")}": it resolves outside`),
    );
    assert.equal(await f.read("a.txt"), "one\n");
  }
});

Deno.test("one file named twice (even spelled differently) is one plan: edits matched together", async () => {
  await using f = await editFixture({ "a.txt": "one\ntwo\n", "b.txt": "b\n" });
  const text = await f.edit("a.txt", [
    { old_text: "one", new_text: "1" },
    { path: "b.txt", old_text: "b", new_text: "B" },
    { path: "./a.txt", old_text: "two", new_text: "2" },
  ]);
  assert.equal(await f.read("a.txt"), "1\n2\n");
  assert.match(text, /^Edited a\.txt: 2 edits, \+2 -2 lines\nedit 0 exact, line 1\nedit 2 exact, line 2\n/);
  assert.equal(text.match(/^Edited a\.txt/gm)?.length, 1);
  // Matched against the same original, so two edits of one text overlap instead of applying one after the other.
  const failure = await f.fail("edit_file", {
    edits: [
      { path: "a.txt", old_text: "1", new_text: "x" },
      { path: `${f.path}/a.txt`, old_text: "1\n2", new_text: "y" },
    ],
  });
  assert.equal(failure.kind, "overlapping");
  assert.match(failure.text, /Cannot edit "a\.txt": edits 0 and 1 overlap/);
});

Deno.test("expected_sha256 works for one file and is refused when edits name several", async () => {
  await using f = await editFixture({ "a.txt": "one\n", "b.txt": "two\n" });
  const hash = await sha256Hex(utf8("one\n"));
  const failure = await f.fail("edit_file", {
    path: "a.txt",
    edits: [{ old_text: "one", new_text: "1" }, { path: "b.txt", old_text: "two", new_text: "2" }],
    expected_sha256: hash,
  });
  assert.equal(failure.kind, "invalid_request");
  assert.equal(failure.code, "invalid_argument");
  assert.match(failure.text, /Cannot edit 2 files: expected_sha256 checks a single file; leave it out/);
  assert.equal(await f.read("b.txt"), "two\n");
  await f.call("edit_file", {
    edits: [{ path: "a.txt", old_text: "one", new_text: "1" }],
    expected_sha256: hash,
  });
  assert.equal(await f.read("a.txt"), "1\n");
});

Deno.test("an edit without a path in a call without path is invalid_request", async () => {
  await using f = await editFixture({ "a.txt": "one\n" });
  const failure = await f.fail("edit_file", {
    edits: [{ path: "a.txt", old_text: "one", new_text: "1" }, { old_text: "x", new_text: "y" }],
  });
  assert.equal(failure.kind, "invalid_request");
  assert.match(failure.text, /Cannot edit: edit 1 names no file; give path, or a path in each edit/);
  assert.equal(await f.read("a.txt"), "one\n");
});

Deno.test('old_text "" creates one file of several, and must be the only edit for its file', async () => {
  await using f = await editFixture({ "a.js": "export {};\n" });
  const text = await f.edit("a.js", [
    { path: "lib/new.js", old_text: "", new_text: "export const x = 1;\n" },
    { old_text: "export {};", new_text: 'export { x } from "./lib/new.js";' },
  ]);
  assert.match(text, /^Created lib\/new\.js \(20 bytes, 1 line\)\n@@ edit 0 @@/);
  assert.match(text, /\nEdited a\.js: 1 edit, \+1 -1 lines\nedit 1 exact, line 1/);
  assert.equal(await f.read("lib/new.js"), "export const x = 1;\n");
  const failure = await f.fail("edit_file", {
    edits: [
      { path: "n.txt", old_text: "", new_text: "x" },
      { path: "a.js", old_text: "x", new_text: "y" },
      { path: "n.txt", old_text: "x", new_text: "z" },
    ],
  });
  assert.equal(failure.kind, "invalid_request");
  assert.match(
    failure.text,
    /Cannot edit "n\.txt": old_text "" \(create a file\) works only as the single edit for/,
  );
});

Deno.test({
  name: "a read-only file anywhere in the call refuses it before any file is written",
  ignore: isWindows,
  async fn() {
    await using f = await editFixture({ "a.txt": "one\n", "ro.txt": "two\n" });
    await Deno.chmod(f.join("ro.txt"), 0o444);
    const failure = await f.fail("edit_file", {
      edits: [{ path: "a.txt", old_text: "one", new_text: "1" }, {
        path: "ro.txt",
        old_text: "two",
        new_text: "2",
      }],
    });
    assert.equal(failure.kind, "permission_denied");
    assert.match(failure.text, /Cannot edit "ro\.txt": the file is read-only \(mode 444\)/);
    assert.match(failure.text, /Nothing was written: all 2 files of the call are unchanged$/);
    assert.equal(await f.read("a.txt"), "one\n");
  },
});

Deno.test({
  name: "a write that fails after others succeeded puts the earlier files back and says so",
  ignore: !folderLockable,
  async fn() {
    await using f = await editFixture({ "a.txt": "one\n", "locked/": "" });
    const unlock = await lockFolder(f.join("locked"));
    try {
      const failure = await f.fail("edit_file", {
        edits: [
          { path: "fresh/deep/new.txt", old_text: "", new_text: "new\n" },
          { path: "a.txt", old_text: "one", new_text: "1" },
          { path: "locked/c.txt", old_text: "", new_text: "c\n" },
        ],
      });
      assert.equal(failure.kind, "permission_denied");
      assert.match(
        failure.text,
        /^Error \[permission_denied\]: Cannot create "locked\/c\.txt": permission denied.*; the files written before it were put back \("fresh\/deep\/new\.txt", "a\.txt"\)$/,
      );
    } finally {
      await unlock();
    }
    assert.equal(await f.read("a.txt"), "one\n");
    await assert.rejects(Deno.stat(f.join("fresh")), Deno.errors.NotFound);
    await assert.rejects(Deno.stat(f.join("locked/c.txt")), Deno.errors.NotFound);
    assert.deepEqual(await f.leftovers(), []);
  },
});

Deno.test("accepted shapes: { path, edits } groups, file_path in an edit; unknown keys still refused", async () => {
  await using f = await editFixture({ "a.txt": "one\n", "b.txt": "two\n" });
  await f.edit("a.txt", [
    { path: "a.txt", edits: [{ oldText: "one", newText: "1" }] },
    { file_path: "b.txt", old_string: "two", new_string: "2" },
  ]);
  assert.equal(await f.read("a.txt"), "1\n");
  assert.equal(await f.read("b.txt"), "2\n");
  const failure = await f.fail("edit_file", { edits: [{ paths: "a.txt", old_text: "1", new_text: "x" }] });
  assert.equal(failure.code, "invalid_argument");
  assert.match(failure.text, /"edits\.0\.paths": unknown argument \(did you mean "path"\?\)/);
});

Deno.test("concurrent calls naming the same files in opposite orders all finish (locks taken in one order)", async () => {
  await using f = await editFixture({ "a.txt": "a\n", "b.txt": "b\n" });
  const calls = Array.from({ length: 10 }, (_, i) =>
    f.call("edit_file", {
      edits: (i % 2 ? ["b.txt", "a.txt"] : ["a.txt", "b.txt"]).map((path) => ({
        path,
        "old_text": "\n",
        "new_text": `${i}\n`,
      })),
    }));
  const results = await Promise.all(calls);
  assert.deepEqual(results.map((result) => result.isError), Array(10).fill(undefined));
  assert.equal((await f.read("a.txt")).length, 12); // "a" + ten digits + "\n": no call's edit was lost
  assert.equal((await f.read("b.txt")).length, 12);
});
