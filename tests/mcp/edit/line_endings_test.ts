import assert from "node:assert/strict";
import { bytesOf, editFixture } from "./fixture.ts";

Deno.test("CRLF file: replaced lines get CRLF, the rest is untouched, the note says CRLF kept", async () => {
  await using f = await editFixture({ "a.py": "def f():\r\n    x = 1\r\n    return x\r\n" });
  const text = await f.edit("a.py", [{ old_text: "    x = 1\n", new_text: "    x = 2\n    y = 3\n" }]);
  assert.equal(await f.read("a.py"), "def f():\r\n    x = 2\r\n    y = 3\r\n    return x\r\n");
  assert.match(text, /^Edited a\.py: 1 edit, \+2 -1 lines \(CRLF kept\)/);
});

Deno.test("CRLF file: old_text sent with CRLF matches the same way", async () => {
  await using f = await editFixture({ "a.txt": "one\r\ntwo\r\nthree\r\n" });
  await f.edit("a.txt", [{ old_text: "one\r\ntwo\r\n", new_text: "uno\r\ndos\r\n" }]);
  assert.equal(await f.read("a.txt"), "uno\r\ndos\r\nthree\r\n");
});

Deno.test("CR-only file: matching treats CR as a line break and writes CR", async () => {
  await using f = await editFixture({ "mac.txt": "alpha\rbeta\rgamma\r" });
  await f.edit("mac.txt", [{ old_text: "beta\n", new_text: "beta\nbeta2\n" }]);
  assert.equal(await f.read("mac.txt"), "alpha\rbeta\rbeta2\rgamma\r");
});

Deno.test("mixed endings: each untouched line keeps its own; new lines take the matched line's ending", async () => {
  await using f = await editFixture({ "m.txt": "a\r\nb\nc\r\nd\n" });
  await f.edit("m.txt", [{ old_text: "b\n", new_text: "b\nb2\n" }, { old_text: "c\n", new_text: "c\nc2\n" }]);
  assert.equal(await f.read("m.txt"), "a\r\nb\nb2\nc\r\nc2\r\nd\n");
});

Deno.test("a lone CR inside a LF file is content and stays", async () => {
  await using f = await editFixture({ "cr.txt": "progress\r50%\nnext\n" });
  await f.edit("cr.txt", [{ old_text: "next", new_text: "after" }]);
  assert.equal(await f.read("cr.txt"), "progress\r50%\nafter\n");
});

Deno.test("a match never splits a CRLF: deleting up to the line end keeps the CRLF whole", async () => {
  await using f = await editFixture({ "s.txt": "keep this; drop this\r\nnext\r\n" });
  await f.edit("s.txt", [{ old_text: "; drop this", new_text: "" }]);
  assert.equal(await f.read("s.txt"), "keep this\r\nnext\r\n");
});

Deno.test("no trailing newline stays absent after an edit of the last line", async () => {
  await using f = await editFixture({ "n.txt": "first\nlast" });
  await f.edit("n.txt", [{ old_text: "last", new_text: "final" }]);
  assert.equal(await f.read("n.txt"), "first\nfinal");
});

Deno.test("EOF rule: old_text ending in a newline matches a last line without one; new_text's newline is dropped", async () => {
  await using f = await editFixture({ "n.txt": "first\nlast" });
  const text = await f.edit("n.txt", [{ old_text: "last\n", new_text: "final\n" }]);
  assert.equal(await f.read("n.txt"), "first\nfinal");
  assert.match(text, /edit 0 whitespace, line 2: old_text's final newline matched the end of the file/);
});

Deno.test("a trailing newline is kept when editing the last line", async () => {
  await using f = await editFixture({ "n.txt": "first\nlast\n" });
  await f.edit("n.txt", [{ old_text: "last", new_text: "final" }]);
  assert.equal(await f.read("n.txt"), "first\nfinal\n");
});

Deno.test("UTF-8 BOM is kept and old_text starting with U+FEFF still matches", async () => {
  await using f = await editFixture({ "b.txt": bytesOf([0xef, 0xbb, 0xbf], "title\nbody\n") });
  const text = await f.edit("b.txt", [{ old_text: "\uFEFFtitle", new_text: "Title" }]);
  assert.deepEqual(await f.bytes("b.txt"), bytesOf([0xef, 0xbb, 0xbf], "Title\nbody\n"));
  assert.match(text, /\(BOM kept\)/);
});

Deno.test("CRLF file with BOM and no final newline: all three survive", async () => {
  await using f = await editFixture({ "w.txt": bytesOf([0xef, 0xbb, 0xbf], "a\r\nb\r\nc") });
  await f.edit("w.txt", [{ old_text: "b", new_text: "B1\nB2" }]);
  assert.deepEqual(await f.bytes("w.txt"), bytesOf([0xef, 0xbb, 0xbf], "a\r\nB1\r\nB2\r\nc"));
});

Deno.test("new lines on an unterminated last line take the previous line's CRLF", async () => {
  await using f = await editFixture({ "u.txt": "a\r\nb" });
  await f.edit("u.txt", [{ old_text: "b", new_text: "b\nc" }]);
  assert.equal(await f.read("u.txt"), "a\r\nb\r\nc");
});

Deno.test("CRLF file with trailing spaces and curly quotes: fuzzy match keeps CRLF, spaces and quotes", async () => {
  await using f = await editFixture({ "c.md": "intro\r\nsay “yes”  \r\nend\r\n" });
  await f.edit("c.md", [{ old_text: `say "yes"\nend`, new_text: `say "no"\nend` }]);
  assert.equal(await f.read("c.md"), "intro\r\nsay “no”  \r\nend\r\n");
});

Deno.test("EOF rule in a CRLF file without a final newline", async () => {
  await using f = await editFixture({ "e.txt": "a\r\nb" });
  await f.edit("e.txt", [{ old_text: "b\r\n", new_text: "c\r\nd\r\n" }]);
  assert.equal(await f.read("e.txt"), "a\r\nc\r\nd");
});

Deno.test("whole-line deletion in a CRLF file removes the CRLF with the line", async () => {
  await using f = await editFixture({ "d.txt": "a\r\n    drop me\r\nb\r\n" });
  await f.edit("d.txt", [{ old_text: "drop me", new_text: "" }]);
  assert.equal(await f.read("d.txt"), "a\r\nb\r\n");
});

Deno.test("whole-line deletion in a CR-only file removes the CR with the line", async () => {
  await using f = await editFixture({ "d.txt": "a\rdrop\rb\r" });
  await f.edit("d.txt", [{ old_text: "drop", new_text: "" }]);
  assert.equal(await f.read("d.txt"), "a\rb\r");
});

Deno.test("deleting the unterminated last line reports only that line, with no spurious hunk line", async () => {
  await using f = await editFixture({ "n.txt": "a\nb\nc" });
  const text = await f.edit("n.txt", [{ old_text: "c", new_text: "" }]);
  assert.equal(await f.read("n.txt"), "a\nb");
  assert.match(text, /^Edited n\.txt: 1 edit, \+0 -1 lines\nedit 0 exact, line 3 removed \(whole line\)\n/);
  assert.match(text, /@@ edit 0 @@\n {2}1 \| a\n {2}2 \| b\n- 3 \| c\nsha256_after/);
});

Deno.test("the dry-run diff of that deletion still shows the lost final newline", async () => {
  await using f = await editFixture({ "n.txt": "a\nb\nc" });
  const text = await f.edit("n.txt", [{ old_text: "c", new_text: "" }], { dry_run: true });
  assert.match(
    text,
    /@@ -1,3 \+1,2 @@\n a\n-b\n-c\n\\ No newline at end of file\n\+b\n\\ No newline at end of file/,
  );
});

Deno.test("mixed endings: lines replaced one for one keep their own breaks, not the first line's", async () => {
  await using f = await editFixture({ "m.txt": "a\r\nb\nc\r\n" });
  await f.edit("m.txt", [{ old_text: "a\nb\nc", new_text: "A\nB\nC" }]);
  assert.deepEqual(await f.bytes("m.txt"), bytesOf("A\r\nB\nC\r\n"));
});

Deno.test("mixed endings: an unchanged line inside the edit keeps its CRLF, sent either way", async () => {
  for (
    const [old, replacement] of [["one\ntwo\r\nthree", "ONE\ntwo\r\nTHREE"], [
      "one\ntwo\nthree",
      "ONE\ntwo\nTHREE",
    ]]
  ) {
    await using f = await editFixture({ "m.txt": "one\ntwo\r\nthree\n" });
    const text = await f.edit("m.txt", [{ old_text: old, new_text: replacement }]);
    assert.deepEqual(await f.bytes("m.txt"), bytesOf("ONE\ntwo\r\nTHREE\n"));
    assert.match(text, /\(mixed line endings kept\)/);
  }
});

Deno.test("mixed endings without a final newline: the breaks map one for one and none is added", async () => {
  await using f = await editFixture({ "m.txt": "a\r\nb\nc" });
  await f.edit("m.txt", [{ old_text: "a\nb\nc", new_text: "A\nB\nC" }]);
  assert.deepEqual(await f.bytes("m.txt"), bytesOf("A\r\nB\nC"));
});

Deno.test("mixed endings: genuinely new lines take the file's dominant style, unchanged ones keep theirs", async () => {
  await using f = await editFixture({ "m.txt": "x\r\ny\r\nz\nw\r\n", "n.txt": "one\ntwo\r\nthree\nfour\n" });
  await f.edit("m.txt", [{ old_text: "z\n", new_text: "z\nz2\n" }]);
  assert.deepEqual(await f.bytes("m.txt"), bytesOf("x\r\ny\r\nz\nz2\r\nw\r\n"));
  // one → ONE + extra is not one for one: both take the dominant LF; two keeps its CRLF.
  await f.edit("n.txt", [{ old_text: "one\ntwo\nthree", new_text: "ONE\nextra\ntwo\nTHREE" }]);
  assert.deepEqual(await f.bytes("n.txt"), bytesOf("ONE\nextra\ntwo\r\nTHREE\nfour\n"));
});

Deno.test("mixed endings: a block replaced by more lines takes the dominant style for its new breaks", async () => {
  await using f = await editFixture({ "m.txt": "a\r\nb\nc\r\n" });
  await f.edit("m.txt", [{ old_text: "a\nb\n", new_text: "X\nY\nZ\n" }]);
  // The break after the block is the file's own (b's LF); X and Y are new lines: CRLF, the file's majority.
  assert.deepEqual(await f.bytes("m.txt"), bytesOf("X\r\nY\r\nZ\nc\r\n"));
});

Deno.test("CR-only file: a multi-line replacement writes CR for every break, the rest byte for byte", async () => {
  await using f = await editFixture({ "mac.txt": "a\rb\rc" });
  await f.edit("mac.txt", [{ old_text: "a\nb", new_text: "A\nB\nB2" }]);
  assert.deepEqual(await f.bytes("mac.txt"), bytesOf("A\rB\rB2\rc"));
});

Deno.test("mixed endings: a removed line before an unchanged one does not lend it its break", async () => {
  await using f = await editFixture({ "m.txt": "one\ntwo\r\nthree\n" });
  await f.edit("m.txt", [{ old_text: "one\ntwo\nthree", new_text: "two\nTHREE" }]);
  assert.deepEqual(await f.bytes("m.txt"), bytesOf("two\r\nTHREE\n"));
});
