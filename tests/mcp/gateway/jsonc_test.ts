import assert from "node:assert/strict";
import { parseJsonc, stripJsonc } from "../../../mcp/gateway/jsonc.ts";

Deno.test("jsonc: line and block comments go, and so do trailing commas in objects and arrays", () => {
  const text = `{
    // a line comment
    "a": [1, 2, /* inline */ 3,], /* a block
    over two lines */
    "b": { "c": true, },
  }`;
  assert.deepEqual(parseJsonc(text), { a: [1, 2, 3], b: { c: true } });
});

Deno.test("jsonc: comment markers and commas inside strings are kept", () => {
  const text = `{ "url": "https://example.com//x", "glob": "/* not a comment */", "list": "a,]", "c": ",}" }`;
  assert.deepEqual(parseJsonc(text), {
    url: "https://example.com//x",
    glob: "/* not a comment */",
    list: "a,]",
    c: ",}",
  });
});

Deno.test("jsonc: escaped quotes and backslashes do not end a string early", () => {
  const text = String.raw`{ "a": "say \"// hi\" ,}", "b": "C:\\dir\\", // after a string ending in \\
    "c": "\\\"/*" }`;
  assert.deepEqual(parseJsonc(text), { a: 'say "// hi" ,}', b: "C:\\dir\\", c: '\\"/*' });
});

Deno.test("jsonc: positions survive, so JSON.parse's line and column point into the original text", () => {
  const text = `{\n  /* one */ "a": 1,\n  // two\n  "b": 2 3\n}`;
  const stripped = stripJsonc(text);
  assert.equal(stripped.length, text.length);
  assert.deepEqual(
    stripped.split("\n").map((line) => line.length),
    text.split("\n").map((line) => line.length),
  );
  assert.throws(() => parseJsonc(text), SyntaxError);
});

Deno.test("jsonc: an unterminated block comment is an error naming its line, not silently the rest of the file", () => {
  assert.throws(() => parseJsonc(`{\n "a": 1 /* open\n}`), /Unterminated \/\* comment at line 2/);
});

Deno.test("jsonc: a byte order mark and a comment at the very end are accepted", () => {
  assert.deepEqual(parseJsonc(`\uFEFF{"a": 1} // end`), { a: 1 });
});

Deno.test("jsonc: a trailing comma after a comment is removed; a lone comma before a value is left to JSON.parse", () => {
  assert.deepEqual(parseJsonc(`[1, // one\n]`), [1]);
  assert.throws(() => parseJsonc(`[1,,2]`), SyntaxError);
});

Deno.test("jsonc: a key given twice in one object is an error naming it and its line; the same key in two objects is fine", () => {
  assert.throws(
    () => parseJsonc(`{\n "a": { "x": 1 },\n /* copied */ "a"\n : { "x": 2 }\n}`),
    /^SyntaxError: Duplicate key "a" at line 3$/,
  );
  assert.throws(() => parseJsonc(`{"\\u0061": 1, "a": 2}`), /Duplicate key "a"/, "escapes are decoded first");
  assert.deepEqual(parseJsonc(`{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}], "c": "a", "d": ":"}`), {
    a: { a: 1 },
    b: [{ a: 1 }, { a: 2 }],
    c: "a",
    d: ":",
  });
});
