import assert from "node:assert/strict";
import { editFixture, utf8 } from "./fixture.ts";

Deno.test("curly quotes in the file, straight in old_text: file's quotes kept where unchanged", async () => {
  await using f = await editFixture({ "q.md": "She said “hello” and it’s fine.\n" });
  const text = await f.edit("q.md", [{
    old_text: `She said "hello" and it's fine.`,
    new_text: `She said "hello" and it's great.`,
  }]);
  assert.equal(await f.read("q.md"), "She said “hello” and it’s great.\n");
  assert.match(
    text,
    /edit 0 unicode, line 1: matched after treating U\+201C LEFT DOUBLE QUOTATION MARK as "/,
  );
  assert.match(text, /U\+2019 RIGHT SINGLE QUOTATION MARK as '/);
  assert.match(text, /the file's characters were kept/);
});

Deno.test("curly quotes in old_text, straight in the file: the model's changed text is written as sent", async () => {
  await using f = await editFixture({ "a.js": `const s = "it's";\n` });
  await f.edit("a.js", [{ old_text: "const s = “it’s”;", new_text: "const t = “it’s”;" }]);
  assert.equal(await f.read("a.js"), `const t = "it's";\n`);
});

Deno.test("a changed quote is written with the model's character", async () => {
  await using f = await editFixture({ "q.txt": "say ‘hi’ now\n" });
  await f.edit("q.txt", [{ old_text: "say 'hi' now", new_text: "say «hi» now" }]);
  assert.equal(await f.read("q.txt"), "say «hi» now\n");
});

Deno.test("em and en dashes and the minus sign match ASCII hyphens", async () => {
  await using f = await editFixture({ "d.txt": "pages 10–20 — see −5\n" });
  await f.edit("d.txt", [{ old_text: "pages 10-20 - see -5", new_text: "pages 10-30 - see -5" }]);
  assert.equal(await f.read("d.txt"), "pages 10–30 — see −5\n");
});

Deno.test("NBSP and narrow NBSP in the file match plain spaces and are kept", async () => {
  await using f = await editFixture({ "n.txt": "price:\u00A010\u202F€ total\n" });
  await f.edit("n.txt", [{ old_text: "price: 10 € total", new_text: "price: 10 € sum" }]);
  assert.equal(await f.read("n.txt"), "price:\u00A010\u202F€ sum\n");
});

Deno.test("zero-width characters in the file are ignored for matching and kept", async () => {
  await using f = await editFixture({ "z.txt": "foo\u200Bbar baz\n" });
  await f.edit("z.txt", [{ old_text: "foobar baz", new_text: "foobar qux" }]);
  assert.equal(await f.read("z.txt"), "foo\u200Bbar qux\n");
});

Deno.test("NFD accents in the file match NFC old_text; the decomposed letters are kept", async () => {
  const nfd = "cafe\u0301 ole\u0301\n";
  await using f = await editFixture({ "e.txt": nfd });
  await f.edit("e.txt", [{ old_text: "café olé", new_text: "café olé!" }]);
  assert.equal(await f.read("e.txt"), "cafe\u0301 ole\u0301!\n");
});

Deno.test("changing an NFD letter replaces the whole cluster, never half of it", async () => {
  await using f = await editFixture({ "e.txt": "cafe\u0301\n" });
  await f.edit("e.txt", [{ old_text: "café", new_text: "cafè" }]);
  assert.equal(await f.read("e.txt"), "cafè\n");
});

Deno.test("a ligature in the file matches its letters; editing next to it keeps it", async () => {
  await using f = await editFixture({ "l.txt": "the \uFB01le is here\n" });
  await f.edit("l.txt", [{ old_text: "the file is here", new_text: "the file is there" }]);
  assert.equal(await f.read("l.txt"), "the \uFB01le is there\n");
});

Deno.test("an old_text ending inside a ligature does not match it", async () => {
  await using f = await editFixture({ "l.txt": "\uFB01\n" });
  const failure = await f.fail("edit_file", { path: "l.txt", edits: [{ old_text: "f", new_text: "g" }] });
  assert.equal(failure.kind, "no_match");
});

Deno.test("emoji and astral characters are matched and written whole", async () => {
  await using f = await editFixture({ "e.md": "status: 😀 ok 𝔘\n" });
  await f.edit("e.md", [{ old_text: "😀 ok", new_text: "😁 ok" }]);
  assert.equal(await f.read("e.md"), "status: 😁 ok 𝔘\n");
});

Deno.test("an emoji ZWJ sequence stays intact when text after it changes", async () => {
  await using f = await editFixture({ "f.md": "family 👨‍👩‍👧 “home”\n" });
  await f.edit("f.md", [{ old_text: `family 👨‍👩‍👧 "home"`, new_text: `family 👨‍👩‍👧 "house"` }]);
  assert.equal(await f.read("f.md"), "family 👨‍👩‍👧 “house”\n");
});

Deno.test("trailing spaces in the file are tolerated and reported with their lines", async () => {
  await using f = await editFixture({ "t.txt": "alpha  \nbeta\t\ngamma\n" });
  const text = await f.edit("t.txt", [{ old_text: "alpha\nbeta\ngamma", new_text: "alpha\nbeta\ndelta" }]);
  assert.equal(await f.read("t.txt"), "alpha  \nbeta\t\ndelta\n");
  assert.match(text, /edit 0 whitespace, lines 1-3: ignored trailing whitespace on lines 1, 2/);
});

Deno.test("trailing spaces in old_text are tolerated; they must end at a line end", async () => {
  await using f = await editFixture({ "t.txt": "foobar\nfoo\n" });
  await f.edit("t.txt", [{ old_text: "foo  ", new_text: "baz" }]);
  assert.equal(await f.read("t.txt"), "foobar\nbaz\n");
});

Deno.test("tabs vs spaces are never fuzzed: old_text with spaces does not match tab indentation", async () => {
  await using f = await editFixture({ "Makefile": "all:\n\techo hi\n" });
  const failure = await f.fail("edit_file", {
    path: "Makefile",
    edits: [{ old_text: "    echo hi", new_text: "    echo bye" }],
  });
  assert.equal(failure.kind, "no_match");
  assert.match(failure.text, /tabs vs spaces/);
  assert.equal(await f.read("Makefile"), "all:\n\techo hi\n");
});

Deno.test("Python indentation is never fuzzed: a dedented old_text is refused with the indentation hint", async () => {
  await using f = await editFixture({ "m.py": "def g():\n    if x:\n        return 1\n" });
  const failure = await f.fail("edit_file", {
    path: "m.py",
    edits: [{ old_text: "if x:\n    return 1", new_text: "if y:\n    return 2" }],
  });
  assert.equal(failure.kind, "no_match");
  assert.match(
    failure.text,
    /Closest text is lines 2-3; it differs only in indentation \(the file indents these lines by 4, 8 spaces, old_text by 0, 4\)/,
  );
  assert.match(failure.text, /\n {4}2 \| {5}if x:\n {4}3 \| {9}return 1\n/);
});

Deno.test("an exact match wins over a fuzzy one elsewhere (first tier with a candidate decides)", async () => {
  await using f = await editFixture({ "x.txt": "it’s\nit's\n" });
  const text = await f.edit("x.txt", [{ old_text: "it's", new_text: "it is" }]);
  assert.equal(await f.read("x.txt"), "it’s\nit is\n");
  assert.match(text, /edit 0 exact/);
});

Deno.test("NBSP in old_text matches a plain space in the file", async () => {
  await using f = await editFixture({ "s.txt": "a b c\n" });
  await f.edit("s.txt", [{ old_text: "a\u00A0b c", new_text: "a\u00A0b d" }]);
  assert.equal(await f.read("s.txt"), "a b d\n");
});

Deno.test("full-width ASCII forms fold to ASCII (the same characters at CJK width)", async () => {
  await using f = await editFixture({ "w.txt": "ＡＢＣ total\n" });
  await f.edit("w.txt", [{ old_text: "ABC total", new_text: "ABC sum" }]);
  assert.equal(await f.read("w.txt"), "ＡＢＣ sum\n");
});

Deno.test("look-alikes in old_text (dash, zero-width, NFD, ligature) match plain file text; unchanged text stays plain", async () => {
  await using f = await editFixture({ "p.txt": "a-b cafe fine value\n" });
  await f.edit("p.txt", [{
    old_text: "a—b ca\u200Bfe \uFB01ne value",
    new_text: "a—b ca\u200Bfe \uFB01ne price",
  }]);
  assert.equal(await f.read("p.txt"), "a-b cafe fine price\n");
});

Deno.test("NFD old_text matches an NFC file", async () => {
  await using f = await editFixture({ "n.txt": "café au lait\n" });
  await f.edit("n.txt", [{ old_text: "cafe\u0301 au lait", new_text: "cafe\u0301 au chocolat" }]);
  assert.equal(await f.read("n.txt"), "café au chocolat\n");
});

Deno.test("whitespace tier: the trailing spaces of a changed line are kept", async () => {
  await using f = await editFixture({ "t.py": "def f():\n    x = 1  \n    return x\n" });
  await f.edit("t.py", [{ old_text: "    x = 1\n", new_text: "    x = 2\n" }]);
  assert.equal(await f.read("t.py"), "def f():\n    x = 2  \n    return x\n");
  await f.edit("t.py", [{ old_text: "x = 2\n    return x", new_text: "x = 2 + 1\n    return x" }]);
  assert.equal(await f.read("t.py"), "def f():\n    x = 2 + 1  \n    return x\n");
});

Deno.test("whitespace tier: new_text's own trailing blanks replace the file's", async () => {
  await using f = await editFixture({ "t.txt": "a = 1  \nb\n" });
  await f.edit("t.txt", [{ old_text: "a = 1\n", new_text: "a = 2\t\n" }]);
  assert.equal(await f.read("t.txt"), "a = 2\t\nb\n");
});

Deno.test("whitespace tier: joining a line with trailing spaces to the next drops the spaces with the break", async () => {
  await using f = await editFixture({ "t.txt": "a  \nb\n" });
  await f.edit("t.txt", [{ old_text: "a\nb", new_text: "ab" }]);
  assert.equal(await f.read("t.txt"), "ab\n");
});

Deno.test("whitespace tier: a block replaced by fewer lines is written as given, no stray trailing blanks", async () => {
  await using f = await editFixture({ "t.txt": "keep  \nline one   \nline two  \nline three   \n" });
  await f.edit("t.txt", [{ old_text: "line one\nline two\n", new_text: "replaced\n" }]);
  assert.deepEqual(await f.bytes("t.txt"), utf8("keep  \nreplaced\nline three   \n"));
});
