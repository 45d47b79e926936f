import assert from "node:assert/strict";
import { parseEvent, type RipgrepLine } from "../../../lib/ripgrep/json.ts";
import { JsonShrinker } from "../../../lib/ripgrep/shrink.ts";

/** A `match` record as `rg --json` writes it. */
function record(lines: { text: string } | { bytes: string }, submatches: number): string {
  return JSON.stringify({
    type: "match",
    data: {
      path: { text: "src/a.min.js" },
      lines,
      line_number: 7,
      absolute_offset: 0,
      submatches: Array.from(
        { length: submatches },
        (_, i) => ({ match: { text: "x" }, start: i, end: i + 1 }),
      ),
    },
  });
}

function shrink(text: string, maxChars: number, chunk: number): string {
  const shrinker = new JsonShrinker(maxChars);
  for (let i = 0; i < text.length; i += chunk) shrinker.push(text.slice(i, i + chunk));
  return shrinker.finish();
}

Deno.test("JsonShrinker cuts a long line and a long match list, saying how much, whatever the chunking", () => {
  // Escapes (quote, backslash, newline, control), non-ASCII and a surrogate pair, repeated.
  const text = 'é"\\\n\u0001x😀'.repeat(10_000);
  const raw = record({ text }, 5_000);
  const outputs = [1, 2, 3, 5, 7, 64, 65_536].map((chunk) => shrink(raw, 4_000, chunk));
  for (const output of outputs) assert.equal(output, outputs[0]);
  const parsed = JSON.parse(outputs[0]);
  assert.ok(outputs[0].length < 4_000, `${outputs[0].length} characters`);
  assert.ok(text.startsWith(parsed.data.lines.text));
  assert.equal(parsed.cut["data.lines.text"], text.length - parsed.data.lines.text.length);
  assert.equal(parsed.cut["data.submatches[]"], 5_000 - parsed.data.submatches.length);
  assert.equal(parsed.data.line_number, 7);
  const event = parseEvent(outputs[0]) as RipgrepLine;
  assert.equal(event.cut, text.length - event.text.length);
  assert.equal(event.path, "src/a.min.js");
});

Deno.test("JsonShrinker leaves a record that fits unchanged", () => {
  const raw = record({ text: 'short "line"\n' }, 2);
  assert.equal(shrink(raw, 4_000, 3), raw);
});

Deno.test("JsonShrinker cuts base64 lines (not UTF-8) on a 4-character boundary, so they still decode", () => {
  const bytes = new Uint8Array(30_000).map((_, i) => (i % 7 === 0 ? 0xff : 0x61));
  const base64 = btoa(String.fromCharCode(...bytes));
  const output = shrink(record({ bytes: base64 }, 1), 4_000, 1_000);
  const parsed = JSON.parse(output);
  assert.equal(parsed.data.lines.bytes.length % 4, 0);
  assert.ok(base64.startsWith(parsed.data.lines.bytes));
  const event = parseEvent(output) as RipgrepLine;
  assert.ok(event.text.startsWith("\ufffdaaaaaa\ufffd"));
  assert.equal(event.cut, Math.floor((base64.length - parsed.data.lines.bytes.length) * 3 / 4));
});
