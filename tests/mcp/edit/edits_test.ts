import assert from "node:assert/strict";
import { editFixture } from "./fixture.ts";

const CODE = "a = 1\nb = 2\nc = 3\nd = 4\n";

Deno.test("several edits are matched against the original and applied together", async () => {
  await using f = await editFixture({ "c.py": CODE });
  const text = await f.edit("c.py", [{ old_text: "a = 1", new_text: "a = 10" }, {
    old_text: "d = 4",
    new_text: "d = 40",
  }]);
  assert.equal(await f.read("c.py"), "a = 10\nb = 2\nc = 3\nd = 40\n");
  assert.match(text, /^Edited c\.py: 2 edits, \+2 -2 lines\nedit 0 exact, line 1\nedit 1 exact, line 4\n/);
});

Deno.test("edit order does not matter", async () => {
  await using f = await editFixture({ "one.py": CODE, "two.py": CODE });
  const edits = [{ old_text: "a = 1", new_text: "a = 10" }, { old_text: "c = 3", new_text: "c = 30" }];
  await f.edit("one.py", edits);
  await f.edit("two.py", [...edits].reverse());
  assert.equal(await f.read("one.py"), await f.read("two.py"));
  assert.equal(await f.read("one.py"), "a = 10\nb = 2\nc = 30\nd = 4\n");
});

Deno.test("new_text containing old_text is safe: new_text is never searched again", async () => {
  await using f = await editFixture({ "w.txt": "x\n" });
  await f.edit("w.txt", [{ old_text: "x", new_text: "x x" }]);
  assert.equal(await f.read("w.txt"), "x x\n");
});

Deno.test("a later edit's old_text found only in an earlier edit's new_text is a no_match", async () => {
  await using f = await editFixture({ "w.txt": "one\n" });
  const failure = await f.fail("edit_file", {
    path: "w.txt",
    edits: [{ old_text: "one", new_text: "two" }, { old_text: "two", new_text: "three" }],
  });
  assert.equal(failure.kind, "no_match");
  assert.match(failure.text, /edit 1: old_text not found/);
  assert.equal(await f.read("w.txt"), "one\n");
});

Deno.test("overlapping edits are refused naming both edits and their lines; nothing is written", async () => {
  await using f = await editFixture({ "c.py": CODE });
  const failure = await f.fail("edit_file", {
    path: "c.py",
    edits: [{ old_text: "a = 1\nb = 2", new_text: "ab" }, { old_text: "b = 2\nc = 3", new_text: "bc" }],
  });
  assert.equal(failure.kind, "overlapping");
  assert.match(failure.text, /edits 0 and 1 overlap \(lines 1-2 and 2-3\); merge them into one edit/);
  assert.equal(await f.read("c.py"), CODE);
});

Deno.test("touching edits are fine", async () => {
  await using f = await editFixture({ "t.txt": "abcdef\n" });
  await f.edit("t.txt", [{ old_text: "abc", new_text: "ABC" }, { old_text: "def", new_text: "DEF" }]);
  assert.equal(await f.read("t.txt"), "ABCDEF\n");
});

Deno.test("one failing edit fails the whole call and every failure is listed", async () => {
  await using f = await editFixture({ "c.py": CODE });
  const failure = await f.fail("edit_file", {
    path: "c.py",
    edits: [
      { old_text: "a = 1", new_text: "a = 10" },
      { old_text: "zzz_missing", new_text: "y" },
      { old_text: "= ", new_text: "=" },
    ],
  });
  assert.equal(failure.kind, "no_match");
  assert.match(failure.text, /2 edits failed, nothing was changed\nedit 1: old_text not found/);
  assert.match(failure.text, /\nedit 2: old_text matches 4 places/);
  assert.equal(await f.read("c.py"), CODE);
});

Deno.test("ambiguous old_text lists each candidate's line, column and text", async () => {
  await using f = await editFixture({ "r.js": "let x = 1;\nfoo();\n  foo();\n" });
  const failure = await f.fail("edit_file", {
    path: "r.js",
    edits: [{ old_text: "foo();", new_text: "bar();" }],
  });
  assert.equal(failure.kind, "ambiguous");
  assert.equal(failure.code, "invalid_argument");
  assert.match(
    failure.text,
    /old_text matches 2 places \(exact match\): line 2:1 "foo\(\);", line 3:3 "foo\(\);"; add surrounding lines to old_text to pick one, or set replace_all/,
  );
});

Deno.test("overlapping occurrences count as candidates ('aa' twice in 'aaa')", async () => {
  await using f = await editFixture({ "a.txt": "aaa\n" });
  const failure = await f.fail("edit_file", { path: "a.txt", edits: [{ old_text: "aa", new_text: "b" }] });
  assert.match(failure.text, /matches 2 places/);
});

Deno.test("replace_all replaces every occurrence, leftmost non-overlapping", async () => {
  await using f = await editFixture({ "r.txt": "foo bar foo\nfoo\naaaa\n" });
  await f.edit("r.txt", [{ old_text: "foo", new_text: "qux", replace_all: true }]);
  await f.edit("r.txt", [{ old_text: "aa", new_text: "b", replace_all: true }]);
  assert.equal(await f.read("r.txt"), "qux bar qux\nqux\nbb\n");
});

Deno.test("replace_all with a matching expected_count succeeds and reports the count", async () => {
  await using f = await editFixture({ "r.txt": "x\ny\nx\n" });
  const text = await f.edit("r.txt", [{
    old_text: "x",
    new_text: "z",
    replace_all: true,
    expected_count: 2,
  }]);
  assert.equal(await f.read("r.txt"), "z\ny\nz\n");
  assert.match(text, /edit 0 exact, 2 replacements, lines 1, 3/);
});

Deno.test("replace_all with a different expected_count is count_mismatch listing the lines", async () => {
  await using f = await editFixture({ "r.txt": "x\ny\nx\n" });
  const failure = await f.fail("edit_file", {
    path: "r.txt",
    edits: [{ old_text: "x", new_text: "z", replace_all: true, expected_count: 3 }],
  });
  assert.equal(failure.kind, "count_mismatch");
  assert.match(
    failure.text,
    /replace_all found 2 occurrences \(exact match\) but expected_count is 3: line 1:1 "x", line 3:1 "x"/,
  );
  assert.equal(await f.read("r.txt"), "x\ny\nx\n");
});

Deno.test("replace_all is not capped at 1000 occurrences", async () => {
  await using f = await editFixture({ "many.txt": "v\n".repeat(1500) });
  await f.edit("many.txt", [{ old_text: "v", new_text: "w", replace_all: true, expected_count: 1500 }]);
  assert.equal(await f.read("many.txt"), "w\n".repeat(1500));
});

Deno.test("ambiguity beyond 1000 candidates is reported as 1000+", async () => {
  await using f = await editFixture({ "many.txt": "v\n".repeat(1200) });
  const failure = await f.fail("edit_file", { path: "many.txt", edits: [{ old_text: "v", new_text: "w" }] });
  assert.match(failure.text, /matches 1000\+ places/);
});

Deno.test("whole-line deletion: removing an indented statement removes its line", async () => {
  await using f = await editFixture({ "d.py": "def f():\n    x = 1\n    return 2\n" });
  const text = await f.edit("d.py", [{ old_text: "x = 1", new_text: "" }]);
  assert.equal(await f.read("d.py"), "def f():\n    return 2\n");
  assert.match(text, /edit 0 exact, line 2 removed \(whole line\)\n/);
});

Deno.test("whole-line deletion of an unterminated last line takes the preceding line break", async () => {
  await using f = await editFixture({ "d.txt": "keep\r\ndrop" });
  await f.edit("d.txt", [{ old_text: "drop", new_text: "" }]);
  assert.equal(await f.read("d.txt"), "keep");
});

Deno.test("a mid-line deletion stays mid-line", async () => {
  await using f = await editFixture({ "d.txt": "call(a, b)\n" });
  await f.edit("d.txt", [{ old_text: ", b", new_text: "" }]);
  assert.equal(await f.read("d.txt"), "call(a)\n");
});

Deno.test("deleting several whole lines removes them and their line breaks", async () => {
  await using f = await editFixture({ "d.txt": "a\n  b\n  c\nd\n" });
  await f.edit("d.txt", [{ old_text: "b\n  c", new_text: "" }]);
  assert.equal(await f.read("d.txt"), "a\nd\n");
});

Deno.test("old_text equal to new_text is no_change naming the edit", async () => {
  await using f = await editFixture({ "s.txt": "same\n" });
  const failure = await f.fail("edit_file", {
    path: "s.txt",
    edits: [{ old_text: "same", new_text: "same" }],
  });
  assert.equal(failure.kind, "no_change");
  assert.match(failure.text, /edit 0: old_text and new_text are identical/);
});

Deno.test("a fuzzy edit whose only change the file already has is no_change: the file already contains this", async () => {
  await using f = await editFixture({ "s.txt": "it’s\n" });
  const failure = await f.fail("edit_file", {
    path: "s.txt",
    edits: [{ old_text: "it's  ", new_text: "it's" }],
  });
  assert.equal(failure.kind, "no_change");
  assert.match(failure.text, /the file already contains this/);
});

Deno.test("numbered hunks show old numbers on removed lines and new numbers elsewhere", async () => {
  await using f = await editFixture({ "h.txt": "1\n2\n3\n4\n5\n6\n7\n" });
  const text = await f.edit("h.txt", [{ old_text: "4\n", new_text: "four\nfour-b\n" }]);
  assert.match(
    text,
    /@@ edit 0 @@\n {2}2 \| 2\n {2}3 \| 3\n- 4 \| 4\n\+ 4 \| four\n\+ 5 \| four-b\n {2}6 \| 5\n {2}7 \| 6\n/,
  );
});

Deno.test("long lines in hunks are cut at 200 characters", async () => {
  await using f = await editFixture({ "long.txt": `${"x".repeat(300)}\n` });
  const text = await f.edit("long.txt", [{ old_text: "x".repeat(300), new_text: "y".repeat(300) }]);
  assert.match(text, /\+ 1 \| y{200}… \(\+100 chars\)/);
});

Deno.test("large changes are capped per hunk with a count of what was left out", async () => {
  const before = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n") + "\n";
  await using f = await editFixture({ "big.txt": before });
  const text = await f.edit("big.txt", [{ old_text: before, new_text: before.replaceAll("line", "row") }]);
  assert.match(text, /… 70 more changed lines/);
});

Deno.test("many failing edits give one capped answer that says what was cut", async () => {
  const content = Array.from({ length: 200 }, (_, i) => `    value_${i} = compute(${i})`).join("\n") + "\n";
  await using f = await editFixture({ "m.py": content });
  const edits = Array.from({ length: 100 }, (_, i) => ({
    old_text: Array.from({ length: 8 }, (_, k) => `value_${i + k} = compute(${i + k})`).join("\n"),
    new_text: "x",
  }));
  const failure = await f.fail("edit_file", { path: "m.py", edits });
  assert.ok(failure.text.length < 13_000, `${failure.text.length} characters`);
  assert.match(failure.text, /100 edits failed, nothing was changed/);
  assert.match(failure.text, /\[\.\.\. [\d,]+ bytes \/ [\d,]+ lines cut \.\.\.\]/);
  assert.match(failure.text, /edit 99: old_text not found/);
});

Deno.test("ambiguous on a one-line (minified) file shows the text around each match", async () => {
  const file = `function a(){return foo(1)}${"z".repeat(500)}function b(){return foo(1)}`;
  await using f = await editFixture({ "one.js": file });
  const failure = await f.fail("edit_file", {
    path: "one.js",
    edits: [{ old_text: "return foo(1)", new_text: "return foo(2)" }],
  });
  assert.equal(failure.kind, "ambiguous");
  assert.match(failure.text, /line 1:14 "function a\(\)\{return foo\(1\)\}z+…"/);
  assert.match(failure.text, /line 1:541 "…z+function b\(\)\{return foo\(1\)\}"/);
});
