import assert from "node:assert/strict";
import { editFixture, utf8 } from "./fixture.ts";
import { sha256Hex } from "../../../lib/fs/sha256.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

Deno.test("edit_write creates a file and its folders, reporting size, lines and hash", async () => {
  await using f = await editFixture();
  const content = "line 1\nline 2\n";
  const result = await f.call("edit_write", { path: "a/b/c.txt", content });
  assert.equal(result.isError, undefined);
  assert.equal(await f.read("a/b/c.txt"), content);
  const text = (result.content[0] as { text: string }).text;
  assert.equal(text, `Created a/b/c.txt: 14 bytes, 2 lines\nsha256_after: ${await sha256Hex(utf8(content))}`);
});

Deno.test("edit_write refuses to replace a non-empty file without overwrite or expected_sha256", async () => {
  await using f = await editFixture({ "a.txt": "keep me\n" });
  const failure = await f.fail("edit_write", { path: "a.txt", content: "new\n" });
  assert.equal(failure.kind, "file_exists");
  assert.match(
    failure.text,
    /it exists and is not empty; pass overwrite: true \(or the expected_sha256 of the content you read\)/,
  );
  assert.equal(await f.read("a.txt"), "keep me\n");
  assert.deepEqual(await f.leftovers(), []);
});

Deno.test("edit_write replaces with overwrite: true", async () => {
  await using f = await editFixture({ "a.txt": "old\n" });
  const result = await f.call("edit_write", { path: "a.txt", content: "new\n", overwrite: true });
  assert.match((result.content[0] as { text: string }).text, /^Replaced a\.txt: 4 bytes, 1 line/);
  assert.equal(await f.read("a.txt"), "new\n");
});

Deno.test("edit_write replaces when expected_sha256 matches, and refuses a stale one", async () => {
  await using f = await editFixture({ "a.txt": "old\n" });
  const stale = await f.fail("edit_write", { path: "a.txt", content: "x", expected_sha256: "f".repeat(64) });
  assert.equal(stale.kind, "stale");
  assert.equal(await f.read("a.txt"), "old\n");
  const hash = await sha256Hex(utf8("old\n"));
  const result = await f.call("edit_write", { path: "a.txt", content: "new\n", expected_sha256: hash });
  assert.equal(result.isError, undefined);
  assert.equal(await f.read("a.txt"), "new\n");
});

Deno.test("edit_write fills an empty file without overwrite", async () => {
  await using f = await editFixture({ "e.txt": "" });
  await f.call("edit_write", { path: "e.txt", content: "x" });
  assert.equal(await f.read("e.txt"), "x");
});

Deno.test({
  name: "edit_write keeps the replaced file's mode",
  ignore: isWindows,
  async fn() {
    await using f = await editFixture({ "s.sh": "echo\n" });
    await Deno.chmod(f.join("s.sh"), 0o700);
    await f.call("edit_write", { path: "s.sh", content: "echo hi\n", overwrite: true });
    assert.equal((await Deno.stat(f.join("s.sh"))).mode! & 0o777, 0o700);
  },
});

Deno.test("edit_write with overwrite replaces a file above the read limit without reading it", async () => {
  await using f = await editFixture({ "big.txt": "x".repeat(5000) }, { maxBytes: 1000 });
  const result = await f.call("edit_write", { path: "big.txt", content: "small\n", overwrite: true });
  assert.equal(result.isError, undefined);
  assert.equal(await f.read("big.txt"), "small\n");
});

Deno.test("edit_write refuses paths outside the workspace and folders", async () => {
  await using f = await editFixture({ "d/": "" });
  assert.equal((await f.fail("edit_write", { path: "../x.txt", content: "x" })).kind, "outside_workspace");
  assert.equal(
    (await f.fail("edit_write", { path: "d", content: "x", overwrite: true })).kind,
    "is_directory",
  );
});

Deno.test("edit_write with identical content and its hash reports it unchanged", async () => {
  await using f = await editFixture({ "a.txt": "same\n" });
  const hash = await sha256Hex(utf8("same\n"));
  const result = await f.call("edit_write", { path: "a.txt", content: "same\n", expected_sha256: hash });
  assert.match(
    (result.content[0] as { text: string }).text,
    /^Unchanged a\.txt: it already has this content/,
  );
});

Deno.test("edit_write notes when the replaced file's CRLF or BOM is dropped", async () => {
  await using f = await editFixture({ "w.txt": "\uFEFFa\r\nb\r\n" });
  const result = await f.call("edit_write", { path: "w.txt", content: "a\nb\n", overwrite: true });
  const text = (result.content[0] as { text: string }).text;
  assert.match(
    text,
    /\nnote: the replaced file used CRLF line endings; the content was written with LF as given\n/,
  );
  assert.match(
    text,
    /\nnote: the replaced file started with a UTF-8 BOM; the content was written without one\n/,
  );
  assert.equal(await f.read("w.txt"), "a\nb\n");
});
