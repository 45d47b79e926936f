import assert from "node:assert/strict";
import { editFixture } from "./fixture.ts";

async function noMatch(content: string, oldText: string, newText = "changed"): Promise<string> {
  await using f = await editFixture({ "f.txt": content });
  const failure = await f.fail("edit_file", {
    path: "f.txt",
    edits: [{ old_text: oldText, new_text: newText }],
  });
  assert.equal(failure.kind, "no_match");
  assert.equal(failure.code, "not_found");
  assert.equal(await f.read("f.txt"), content, "nothing may be written on no_match");
  return failure.text;
}

Deno.test("no_match: already applied when new_text is in the file", async () => {
  const text = await noMatch("x = 2\n", "x = 1", "x = 2");
  assert.match(
    text,
    /old_text not found but new_text is already in the file at line 1: the edit looks applied already/,
  );
});

Deno.test("no_match: old_text copied with line-number prefixes", async () => {
  for (const prefix of ["   12\t", "12│", "12|", "12:", "12→"]) {
    const text = await noMatch("a = 1\nb = 2\n", `${prefix}a = 1\n${prefix.replace("12", "13")}b = 2`);
    assert.match(text, /every line of old_text starts with a line-number prefix such as "12/, prefix);
  }
});

Deno.test("no_match: line-number prefixes are named with the line the stripped text matches", async () => {
  const text = await noMatch("x\na = 1\nb = 2\n", "2\ta = 1\n3\tb = 2");
  assert.match(
    text,
    /copied from read output; without them it matches line 2; remove the prefixes and retry/,
  );
});

Deno.test("no_match: a typo in old_text is shown as the closest text, even when new_text is elsewhere", async () => {
  const file = "def f():\n    value = compute(1)\n    return value\n\nresult = compute(2)\n";
  const text = await noMatch(file, "    value = compte(1)", "result = compute(2)");
  assert.doesNotMatch(text, /applied already/);
  assert.match(text, /Closest text is line 2; line 2 is " {4}value = compute\(1\)" in the file but/);
});

Deno.test("no_match: a multi-line edit whose new_text sits where old_text was is 'already applied'", async () => {
  const file = "a = 0\ndef f():\n    x = 2\n    return x\n";
  const text = await noMatch(file, "def f():\n    x = 1\n    return x", "def f():\n    x = 2\n    return x");
  assert.match(text, /new_text is already in the file at line 2: the edit looks applied already/);
});

Deno.test("no_match: a short or deleting new_text found in the file is not taken as 'already applied'", async () => {
  const short = await noMatch("a\nbar(z)\n", "bar(a)", "bar");
  assert.doesNotMatch(short, /applied already/);
  const tiny = await noMatch("x = 1\n", "y = 2", "x");
  assert.doesNotMatch(tiny, /applied already/);
});

Deno.test("no_match: tabs vs spaces are counted per side", async () => {
  const text = await noMatch("if x:\n\tdo()\n\tdone()\n", "if x:\n    do()\n    done()");
  assert.match(
    text,
    /Closest text is lines 1-3; it differs only in indentation, tabs vs spaces \(the file indents 2 of these lines with tabs and 0 with spaces, old_text 0 with tabs and 2 with spaces\)/,
  );
});

Deno.test("no_match: interior whitespace differences are named with the line, escaped", async () => {
  const text = await noMatch("x  =  1\ny = 2\n", "x = 1\ny = 2");
  assert.match(text, /it differs only in spacing inside line 1 \(the file: x {2}= {2}1\)/);
});

Deno.test("no_match: a changed line is shown from both sides with invisible characters escaped", async () => {
  const text = await noMatch("alpha\nbeta\ngamma\n", "alpha\nbeta\u00AD2\ngamma");
  assert.match(text, /line 2 is "beta" in the file but "beta\\\\u00AD2" in old_text/);
});

Deno.test("no_match: lines old_text has that the file lacks are reported as missing", async () => {
  const text = await noMatch("one\ntwo\nfour\nfive\n", "one\ntwo\nthree\nfour");
  assert.match(text, /old_text has 1 line missing from the file before line 3: "three"/);
});

Deno.test("no_match: extra file lines inside the window are reported", async () => {
  const text = await noMatch("one\ntwo\nextra\nfour\n", "one\ntwo\nfour\nfive");
  assert.match(text, /the file has extra 1 line at 3 that old_text lacks/);
});

Deno.test("no_match: the closest block is shown with its real line numbers, at most 12 lines", async () => {
  const body = Array.from({ length: 20 }, (_, i) => `    value_${i} = ${i}`).join("\n");
  const content = `header\n${body}\n`;
  const old = body.replaceAll("    value", "value");
  const text = await noMatch(content, old);
  assert.match(text, /Closest text is lines 2-21/);
  assert.match(text, /\n {4}2 \| {5}value_0 = 0\n/);
  assert.match(
    text,
    /\n {3}13 \| {5}value_11 = 11\n {6}… 8 more lines\nCopy the lines exactly as shown after "\|", then retry\.$/,
  );
});

Deno.test("no_match: without anchor lines the rarest word locates the closest block", async () => {
  const text = await noMatch("a\nb\nspecialName(1)\nc\n", "xx specialName(2)");
  assert.match(text, /Closest text is line 3/);
});

Deno.test("no_match: nothing similar says to read the file again", async () => {
  const text = await noMatch("a\nb\n", "zzzz qqqq");
  assert.match(
    text,
    /no similar text is in the file; read it again and copy old_text from its current content/,
  );
});

Deno.test("no_match: a uniform indentation difference is stated once", async () => {
  const text = await noMatch("class A:\n    a = 1\n    b = 2\n    c = 3\n", "a = 1\nb = 2\nc = 3");
  assert.match(
    text,
    /it differs only in indentation \(the file indents these lines by 4 spaces, old_text by 0\)/,
  );
});

Deno.test("no_match: a big old_text far from the file is diagnosed in bounded time with a clear answer", async () => {
  const content = Array.from({ length: 3000 }, (_, i) => `line_${i} = ${i}`).join("\n") + "\n";
  const old = Array.from({ length: 500 }, (_, i) => `other_${i}(${i * 3})`).join("\n");
  const text = await noMatch(content, old);
  assert.match(text, /no similar text is in the file/);
});

Deno.test("no_match: old_text copied from the edit server's own numbered hunks is named as such", async () => {
  for (
    const copied of ["  2 | b = 2\n  3 | c = 3", "- 2 | b = 2\n+ 2 | b = 5\n  3 | c = 3", "    2 | b = 2"]
  ) {
    const text = await noMatch("a = 1\nb = 2\nc = 3\n", copied);
    assert.match(text, /every line of old_text starts with a line-number prefix such as "/, copied);
  }
  const text = await noMatch("a = 1\nb = 2\nc = 3\n", "  2 | b = 2\n  3 | c = 3");
  assert.match(text, /prefix such as "2 \|" copied from read output; without them it matches line 2; remove/);
});
