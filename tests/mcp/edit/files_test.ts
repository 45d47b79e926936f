import assert from "node:assert/strict";
import { bytesOf, editFixture, utf8 } from "./fixture.ts";
import { sha256Hex } from "../../../lib/fs/sha256.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { pathToFileURL } from "node:url";

const isRoot = Deno.uid() === 0;

Deno.test('create mode: old_text "" creates the file and its folders with new_text verbatim', async () => {
  await using f = await editFixture();
  const text = await f.edit("src/deep/new.ts", [{ old_text: "", new_text: "export const a = 1;\r\n" }]);
  assert.deepEqual(await f.bytes("src/deep/new.ts"), utf8("export const a = 1;\r\n"));
  assert.match(text, /^Created src\/deep\/new\.ts \(21 bytes, 1 line\)/);
  assert.match(text, new RegExp(`sha256_after: ${await sha256Hex(utf8("export const a = 1;\r\n"))}`));
});

Deno.test("create mode fills an existing empty file", async () => {
  await using f = await editFixture({ "empty.txt": "" });
  await f.edit("empty.txt", [{ old_text: "", new_text: "now full\n" }]);
  assert.equal(await f.read("empty.txt"), "now full\n");
});

Deno.test("create mode on a non-empty file is file_exists and changes nothing", async () => {
  await using f = await editFixture({ "a.txt": "content\n" });
  const failure = await f.fail("edit_file", { path: "a.txt", edits: [{ old_text: "", new_text: "x" }] });
  assert.equal(failure.kind, "file_exists");
  assert.equal(failure.code, "already_exists");
  assert.match(
    failure.text,
    /Cannot create "a\.txt": it already exists and is not empty; edit it with a non-empty old_text/,
  );
  assert.equal(await f.read("a.txt"), "content\n");
});

Deno.test("create mode with dry_run creates nothing and shows the diff", async () => {
  await using f = await editFixture();
  const text = await f.edit("n/new.txt", [{ old_text: "", new_text: "hello\n" }], { dry_run: true });
  assert.match(text, /^Dry run, nothing written: would create n\/new\.txt/);
  assert.match(text, /\+\+\+ b\/n\/new\.txt\n@@ -0,0 \+1,1 @@\n\+hello/);
  await assert.rejects(Deno.stat(f.join("n")), Deno.errors.NotFound);
});

Deno.test("dry run writes nothing and returns a unified diff with a/ b/ headers", async () => {
  await using f = await editFixture({ "a.py": "x = 1\ny = 2\n" });
  const text = await f.edit("a.py", [{ old_text: "y = 2", new_text: "y = 3" }], { dry_run: true });
  assert.equal(await f.read("a.py"), "x = 1\ny = 2\n");
  assert.match(text, /^Dry run, nothing written: a\.py would get 1 edit, \+1 -1 lines/);
  assert.match(text, /--- a\/a\.py\n\+\+\+ b\/a\.py\n@@ -1,2 \+1,2 @@\n x = 1\n-y = 2\n\+y = 3\n/);
  assert.match(text, new RegExp(`sha256 if applied: ${await sha256Hex(utf8("x = 1\ny = 3\n"))}`));
});

Deno.test("sha256_after is the hash of the written bytes and works as the next expected_sha256", async () => {
  await using f = await editFixture({ "a.txt": "one\n" });
  const first = await f.edit("a.txt", [{ old_text: "one", new_text: "two" }]);
  const hash = first.match(/sha256_after: ([0-9a-f]{64})/)![1];
  assert.equal(hash, await sha256Hex(await f.bytes("a.txt")));
  await f.edit("a.txt", [{ old_text: "two", new_text: "three" }], { expected_sha256: hash });
  assert.equal(await f.read("a.txt"), "three\n");
});

Deno.test("a stale expected_sha256 is refused with both hashes and 'read it again'", async () => {
  await using f = await editFixture({ "a.txt": "one\n" });
  const stale = "0".repeat(64);
  const failure = await f.fail("edit_file", {
    path: "a.txt",
    edits: [{ old_text: "one", new_text: "two" }],
    expected_sha256: stale,
  });
  assert.equal(failure.kind, "stale");
  assert.equal(failure.code, "conflict");
  const current = await sha256Hex(utf8("one\n"));
  assert.match(failure.text, new RegExp(`expected_sha256 ${stale}, current ${current}\\); read it again`));
  assert.equal(await f.read("a.txt"), "one\n");
});

Deno.test("expected_sha256 accepts upper case and a sha256: prefix", async () => {
  await using f = await editFixture({ "a.txt": "one\n" });
  const hash = (await sha256Hex(utf8("one\n"))).toUpperCase();
  await f.edit("a.txt", [{ old_text: "one", new_text: "two" }], { expected_sha256: `sha256:${hash}` });
  assert.equal(await f.read("a.txt"), "two\n");
});

Deno.test("expected_sha256 accepts the `sha256 <hex>` and `sha256: <hex>` forms fs_read prints", async () => {
  await using f = await editFixture({ "a.txt": "one\n", "b.txt": "one\n" });
  const hash = await sha256Hex(utf8("one\n"));
  await f.edit("a.txt", [{ old_text: "one", new_text: "two" }], { expected_sha256: `sha256 ${hash}` });
  await f.edit("b.txt", [{ old_text: "one", new_text: "two" }], { expected_sha256: ` SHA256: ${hash} ` });
  assert.equal(await f.read("a.txt"), "two\n");
  assert.equal(await f.read("b.txt"), "two\n");
  const stale = await f.fail("edit_write", {
    path: "a.txt",
    content: "3\n",
    expected_sha256: `sha256 ${hash}`,
  });
  assert.equal(stale.kind, "stale");
});

Deno.test("invalid UTF-8 bytes elsewhere in the file are kept byte for byte", async () => {
  const before = bytesOf("caf", [0xe9], " au lait\nprice: 10\n");
  await using f = await editFixture({ "latin1.txt": before });
  const text = await f.edit("latin1.txt", [{ old_text: "price: 10", new_text: "price: 12" }]);
  assert.deepEqual(await f.bytes("latin1.txt"), bytesOf("caf", [0xe9], " au lait\nprice: 12\n"));
  assert.match(text, /note: 1 bytes that are not valid UTF-8 were kept as they were/);
});

Deno.test("non-ASCII new_text in a file with invalid UTF-8 is encoding_conflict naming the bad line", async () => {
  await using f = await editFixture({ "latin1.txt": bytesOf("ok\ncaf", [0xe9], "\n") });
  const failure = await f.fail("edit_file", {
    path: "latin1.txt",
    edits: [{ old_text: "ok", new_text: "d’accord" }],
  });
  assert.equal(failure.kind, "encoding_conflict");
  assert.match(failure.text, /first bad byte on line 2/);
});

Deno.test("old_text cannot match across an undecodable byte: no_match says so with its line", async () => {
  await using f = await editFixture({ "latin1.txt": bytesOf("x\ncaf", [0xe9], " au lait\n") });
  const failure = await f.fail("edit_file", {
    path: "latin1.txt",
    edits: [{ old_text: "café au lait", new_text: "tea" }],
  });
  assert.equal(failure.kind, "no_match");
  assert.match(failure.text, /not valid UTF-8 \(first on line 2\)/);
});

Deno.test("old_text with U+FFFD copied from a reader's display of a bad byte gets a specific hint", async () => {
  await using f = await editFixture({ "latin1.txt": bytesOf("caf", [0xe9], " au lait\n") });
  const failure = await f.fail("edit_file", {
    path: "latin1.txt",
    edits: [{ old_text: "caf\uFFFD au lait", new_text: "tea" }],
  });
  assert.match(failure.text, /old_text contains U\+FFFD .*: end old_text before it and start after it/);
});

Deno.test("UTF-16 files are refused as unsupported_encoding", async () => {
  await using f = await editFixture({ "u16.txt": bytesOf([0xff, 0xfe], [0x61, 0, 0x0a, 0]) });
  const failure = await f.fail("edit_file", { path: "u16.txt", edits: [{ old_text: "a", new_text: "b" }] });
  assert.equal(failure.kind, "unsupported_encoding");
  assert.match(failure.text, /it is UTF-16 LE/);
});

Deno.test("a file with a NUL byte is refused as binary with the offset", async () => {
  await using f = await editFixture({ "b.bin": bytesOf("abc", [0], "def") });
  const failure = await f.fail("edit_file", { path: "b.bin", edits: [{ old_text: "abc", new_text: "x" }] });
  assert.equal(failure.kind, "binary");
  assert.match(failure.text, /NUL byte at offset 3/);
  assert.deepEqual(await f.bytes("b.bin"), bytesOf("abc", [0], "def"));
});

Deno.test({
  name: "a symlink's target is edited and the link stays a link",
  ignore: isWindows,
  async fn() {
    await using f = await editFixture({ "real.txt": "v1\n", "link.txt": { symlink: "real.txt" } });
    await f.edit("link.txt", [{ old_text: "v1", new_text: "v2" }]);
    assert.equal(await f.read("real.txt"), "v2\n");
    assert.equal((await Deno.lstat(f.join("link.txt"))).isSymlink, true);
  },
});

Deno.test({
  name: "create mode through a dangling symlink creates its target and keeps the link",
  ignore: isWindows,
  async fn() {
    await using f = await editFixture({ "link.txt": { symlink: "target.txt" } });
    await f.edit("link.txt", [{ old_text: "", new_text: "made\n" }]);
    assert.equal(await f.read("target.txt"), "made\n");
    assert.equal((await Deno.lstat(f.join("link.txt"))).isSymlink, true);
  },
});

Deno.test({
  name: "the file's permission bits are kept",
  ignore: isWindows,
  async fn() {
    await using f = await editFixture({ "run.sh": "echo 1\n" });
    await Deno.chmod(f.join("run.sh"), 0o751);
    await f.edit("run.sh", [{ old_text: "echo 1", new_text: "echo 2" }]);
    assert.equal((await Deno.stat(f.join("run.sh"))).mode! & 0o7777, 0o751);
  },
});

Deno.test({
  name: "a hard-linked file is written in place so both names see the change",
  ignore: isWindows,
  async fn() {
    await using f = await editFixture({ "a.txt": "one\n" });
    await Deno.link(f.join("a.txt"), f.join("b.txt"));
    const text = await f.edit("a.txt", [{ old_text: "one", new_text: "two" }]);
    assert.equal(await f.read("b.txt"), "two\n");
    assert.match(text, /note: written in place/);
  },
});

Deno.test("no temp file is left behind after successes and failures", async () => {
  await using f = await editFixture({ "a.txt": "a\n", "d/": "" });
  await f.edit("a.txt", [{ old_text: "a", new_text: "b" }]);
  await f.fail("edit_file", { path: "a.txt", edits: [{ old_text: "zzz", new_text: "y" }] });
  await f.fail("edit_file", { path: "d", edits: [{ old_text: "x", new_text: "y" }] });
  await f.fail("edit_file", {
    path: "a.txt",
    edits: [{ old_text: "b", new_text: "c" }],
    expected_sha256: "1".repeat(64),
  });
  await f.edit("a.txt", [{ old_text: "b", new_text: "c" }], { dry_run: true });
  assert.deepEqual(await f.leftovers(), []);
});

Deno.test("a path outside the workspace is refused as outside_workspace naming the root", async () => {
  await using f = await editFixture();
  const failure = await f.fail("edit_file", {
    path: "../outside.txt",
    edits: [{ old_text: "", new_text: "x" }],
  });
  assert.equal(failure.kind, "outside_workspace");
  assert.ok(failure.text.includes(f.path), failure.text);
});

Deno.test({
  name: "a symlink pointing outside the workspace is refused",
  ignore: isWindows,
  async fn() {
    const outside = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(`${outside}/secret.txt`, "s\n");
      await using f = await editFixture({ "link.txt": { symlink: `${outside}/secret.txt` } });
      const failure = await f.fail("edit_file", {
        path: "link.txt",
        edits: [{ old_text: "s", new_text: "t" }],
      });
      assert.equal(failure.kind, "outside_workspace");
      assert.equal(await Deno.readTextFile(`${outside}/secret.txt`), "s\n");
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  },
});

Deno.test("a file:// path is edited as the file it names; ~/ is refused; no `file:` or `~` folder appears", async () => {
  await using f = await editFixture({ "a.py": "x = 1\n" });
  await f.edit(pathToFileURL(f.join("a.py")).href, [{ old_text: "x = 1", new_text: "x = 2" }]);
  assert.equal(await f.read("a.py"), "x = 2\n");
  await f.edit(pathToFileURL(f.join("b.py")).href, [{ old_text: "", new_text: "y\n" }]);
  assert.equal(await f.read("b.py"), "y\n");
  const failure = await f.fail("edit_file", { path: "~/c.py", edits: [{ old_text: "", new_text: "z" }] });
  assert.equal(failure.kind, "invalid_request");
  assert.match(failure.text, /Cannot use "~\/c\.py": "~" \(the home folder\) is not expanded/);
  const names: string[] = [];
  for await (const entry of Deno.readDir(f.path)) names.push(entry.name);
  assert.deepEqual(names.sort(), ["a.py", "b.py"]);
});

Deno.test("a missing file is not_found with similar names and the create hint", async () => {
  await using f = await editFixture({ "src/app.tsx": "x\n", "src/other.py": "y\n" });
  const failure = await f.fail("edit_file", {
    path: "src/app.ts",
    edits: [{ old_text: "x", new_text: "y" }],
  });
  assert.equal(failure.kind, "not_found");
  assert.match(
    failure.text,
    /Cannot edit "src\/app\.ts": no such file; did you mean "src\/app\.tsx"\? Use old_text "" to create it\./,
  );
});

Deno.test({
  name: "a path through a file is io_error with the OS code",
  ignore: isWindows,
  async fn() {
    await using f = await editFixture({ "a.txt": "x\n" });
    const failure = await f.fail("edit_file", {
      path: "a.txt/b.txt",
      edits: [{ old_text: "", new_text: "y" }],
    });
    assert.equal(failure.kind, "io_error");
    assert.match(
      failure.text,
      /Cannot edit "a\.txt\/b\.txt": a part of the path is a file, not a folder \(ENOTDIR\)/,
    );
  },
});

Deno.test("a folder is refused as is_directory", async () => {
  await using f = await editFixture({ "dir/": "" });
  const failure = await f.fail("edit_file", { path: "dir", edits: [{ old_text: "x", new_text: "y" }] });
  assert.equal(failure.kind, "is_directory");
  assert.match(failure.text, /it is a folder/);
});

Deno.test("a file above the size limit is too_large with size and limit", async () => {
  await using f = await editFixture({ "big.txt": "x".repeat(2000) }, { maxBytes: 1000 });
  const failure = await f.fail("edit_file", { path: "big.txt", edits: [{ old_text: "x", new_text: "y" }] });
  assert.equal(failure.kind, "too_large");
  assert.match(failure.text, /it has 2,000 bytes, above the 1,000-byte limit/);
});

Deno.test({
  name: "an unreadable file is permission_denied",
  ignore: isWindows || isRoot,
  async fn() {
    await using f = await editFixture({ "locked.txt": "x\n" });
    await Deno.chmod(f.join("locked.txt"), 0o000);
    const failure = await f.fail("edit_file", {
      path: "locked.txt",
      edits: [{ old_text: "x", new_text: "y" }],
    });
    assert.equal(failure.kind, "permission_denied");
  },
});

Deno.test({
  name: "a read-only file is permission_denied, not silently replaced by a rename, even for root",
  ignore: isWindows,
  async fn() {
    await using f = await editFixture({ "ro.txt": "x\n" });
    await Deno.chmod(f.join("ro.txt"), 0o444);
    const failure = await f.fail("edit_file", { path: "ro.txt", edits: [{ old_text: "x", new_text: "y" }] });
    assert.equal(failure.kind, "permission_denied");
    assert.match(failure.text, /Cannot edit "ro\.txt": the file is read-only \(mode 444\); make it writable/);
    const write = await f.fail("edit_write", { path: "ro.txt", content: "y\n", overwrite: true });
    assert.equal(write.kind, "permission_denied");
    assert.equal(await f.read("ro.txt"), "x\n");
    assert.deepEqual(await f.leftovers(), []);
  },
});

Deno.test({
  name: "a folder that refuses temp files gets an in-place write, reported as such",
  ignore: isWindows || isRoot,
  async fn() {
    await using f = await editFixture({ "locked/a.txt": "one\n" });
    await Deno.chmod(f.join("locked"), 0o555);
    try {
      const text = await f.edit("locked/a.txt", [{ old_text: "one", new_text: "two" }]);
      assert.match(text, /note: written in place/);
      assert.equal(await f.read("locked/a.txt"), "two\n");
      assert.deepEqual(await f.leftovers(), []);
    } finally {
      await Deno.chmod(f.join("locked"), 0o755);
    }
  },
});

Deno.test("concurrent edits of one file are serialised: both apply", async () => {
  await using f = await editFixture({ "c.txt": "a\nb\n" });
  const [one, two] = await Promise.all([
    f.call("edit_file", { path: "c.txt", edits: [{ old_text: "a", new_text: "A" }] }),
    f.call("edit_file", { path: "c.txt", edits: [{ old_text: "b", new_text: "B" }] }),
  ]);
  assert.equal(one.isError, undefined);
  assert.equal(two.isError, undefined);
  assert.equal(await f.read("c.txt"), "A\nB\n");
});

Deno.test("two concurrent creates of one new file: one creates it, the other is file_exists", async () => {
  await using f = await editFixture();
  const results = await Promise.all(
    ["first\n", "second\n"].map((text) =>
      f.call("edit_file", { path: "new.txt", edits: [{ old_text: "", new_text: text }] })
    ),
  );
  assert.deepEqual(results.map((r) => r.isError === true).sort(), [false, true]);
  const loser = results.find((r) => r.isError)!;
  assert.equal((loser._meta as { kind: string }).kind, "file_exists");
  assert.ok(["first\n", "second\n"].includes(await f.read("new.txt")));
});

Deno.test({
  name: "a FIFO is refused at once by edit_file and edit_write instead of blocking on open",
  ignore: isWindows,
  fn: async () => {
    await using f = await editFixture();
    const made = await new Deno.Command("mkfifo", { args: [f.join("pipe")] }).output();
    assert.ok(made.success);
    const edit = await f.fail("edit_file", { path: "pipe", edits: [{ old_text: "a", new_text: "b" }] });
    assert.equal(edit.code, "invalid_argument");
    assert.match(edit.text, /not a regular file/);
    const write = await f.fail("edit_write", { path: "pipe", content: "x", overwrite: true });
    assert.match(write.text, /not a regular file/);
  },
});

Deno.test("a missing file's suggestions skip gitignored and hidden names; a visible near-miss is named", async () => {
  await using f = await editFixture({
    ".git/HEAD": "ref: refs/heads/main\n",
    ".gitignore": ".env\nsecret.json\n/private/\n",
    ".env": "API_KEY=hunter2\n",
    ".envrc": "export X=1\n",
    "secret.json": "{}",
    "secret.yaml": "",
    "private/": "",
    "env.example": "",
  });
  const missing = async (path: string) =>
    (await f.fail("edit_file", { path, edits: [{ old_text: "x", new_text: "y" }] })).text;
  const env = await missing("env");
  assert.doesNotMatch(env, /\.env/);
  assert.match(env, /did you mean "env\.example"\?/);
  const secret = await missing("secret.jsn");
  assert.doesNotMatch(secret, /secret\.json/);
  assert.match(secret, /did you mean "secret\.yaml"\?/);
  assert.doesNotMatch(await missing("privat"), /did you mean/);
});
