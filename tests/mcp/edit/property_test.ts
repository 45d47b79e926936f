/** Seeded random cases for the invariants: bytes outside the edit are kept, exact edits are plain replacement. */
import assert from "node:assert/strict";
import { planEdits } from "../../../mcp/edit/plan.ts";
import { foldUnicode } from "../../../mcp/edit/normalize.ts";
import { utf8 } from "./fixture.ts";

/** mulberry32: a tiny deterministic PRNG so failures reproduce. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  "a",
  "b",
  "x",
  "yz",
  " ",
  "  ",
  "\t",
  "’",
  "“",
  "”",
  "—",
  "\u00A0",
  "é",
  "e\u0301",
  "😀",
  "ﬁ",
  "(",
  ")",
  "=",
];

function randomText(next: () => number, lineBreak: string, length: number): string {
  let text = "";
  for (let i = 0; i < length; i++) {
    text += next() < 0.12 ? lineBreak : PIECES[Math.floor(next() * PIECES.length)];
  }
  return text;
}

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("property: an exact, unique old_text is plain string replacement, whatever the line endings", () => {
  const next = random(7);
  let checked = 0;
  for (let round = 0; round < 400; round++) {
    const lineBreak = ["\n", "\r\n"][Math.floor(next() * 2)];
    const content = randomText(next, lineBreak, 40);
    const start = Math.floor(next() * content.length);
    const old = content.slice(start, start + 3 + Math.floor(next() * 8));
    if (old.trim() === "" || content.indexOf(old) !== content.lastIndexOf(old) || /^\n|\r$/.test(old)) {
      continue;
    }
    if (/[\uDC00-\uDFFF]/.test(old[0]) || /[\uD800-\uDBFF]/.test(old[old.length - 1])) continue;
    const replacement = `<${Math.floor(next() * 100)}>`;
    try {
      const plan = planEdits(utf8(content), [{ old_text: old, new_text: replacement }], "f");
      assert.equal(decode(plan.bytes), content.replace(old, replacement), JSON.stringify({ content, old }));
      checked++;
    } catch (error) {
      // Whole-line and overlap rules do not apply here; a ToolError would be a bug.
      throw new Error(`round ${round}: ${(error as Error).message} ${JSON.stringify({ content, old })}`);
    }
  }
  assert.ok(checked > 100, `only ${checked} cases ran`);
});

Deno.test("property: appending after a fuzzy match keeps every character of the file", () => {
  const next = random(11);
  let checked = 0;
  let fuzzy = 0;
  for (let round = 0; round < 3000; round++) {
    const content = randomText(next, "\n", 50) + "\n";
    const start = Math.floor(next() * content.length);
    const chunk = content.slice(start, start + 4 + Math.floor(next() * 10));
    // The chunk must end at a grapheme boundary and on a visible character, so "append" is well defined.
    if (!/[abxyz()=]$/.test(chunk) || !/^[abxyz()=]/.test(chunk) || chunk.includes("\n")) continue;
    const old = foldUnicode(chunk);
    const folded = foldUnicode(content);
    if (folded.indexOf(old) !== folded.lastIndexOf(old) || content.includes(old) && old !== chunk) continue;
    const plan = planEdits(utf8(content), [{ old_text: old, new_text: `${old}!` }], "f");
    const expected = content.slice(0, start + chunk.length) + "!" + content.slice(start + chunk.length);
    assert.equal(decode(plan.bytes), expected, JSON.stringify({ content, chunk, old }));
    checked++;
    if (plan.edits[0].match !== "exact") fuzzy++;
  }
  assert.ok(checked > 80 && fuzzy > 20, `only ${checked} cases ran, ${fuzzy} fuzzy`);
});

Deno.test("property: in a mixed-ending file, lines changed one for one keep every line break byte for byte", () => {
  const next = random(23);
  let checked = 0;
  for (let round = 0; round < 300; round++) {
    const count = 3 + Math.floor(next() * 8);
    const lines = Array.from(
      { length: count },
      (_, i) => `line ${i} ${"xyz".slice(0, Math.floor(next() * 4))}`,
    );
    const breaks: string[] = lines.map(() => next() < 0.5 ? "\r\n" : "\n");
    if (new Set(breaks).size < 2) continue;
    if (next() < 0.3) breaks[count - 1] = ""; // no final newline
    const from = Math.floor(next() * count);
    const to = from + 1 + Math.floor(next() * (count - from));
    const changed = lines.map((line, i) => i >= from && i < to && next() < 0.6 ? line.toUpperCase() : line);
    if (changed.every((line, i) => line === lines[i])) continue;
    const old = lines.slice(from, to).join("\n");
    const replacement = changed.slice(from, to).join("\n");
    const content = lines.map((line, i) => line + breaks[i]).join("");
    const plan = planEdits(utf8(content), [{ old_text: old, new_text: replacement }], "f");
    const expected = changed.map((line, i) => line + breaks[i]).join("");
    assert.equal(decode(plan.bytes), expected, JSON.stringify({ content, old, replacement }));
    checked++;
  }
  assert.ok(checked > 100, `only ${checked} cases ran`);
});
