import assert from "node:assert/strict";
import { cutLine } from "../../../mcp/search/cut.ts";

Deno.test("cutLine leaves short lines alone", () => {
  assert.equal(cutLine("short line", [[0, 5]], { maxChars: 250 }), "short line");
});

Deno.test("cutLine keeps a window around the match and says how much was cut on each side", () => {
  const line = "a".repeat(5000) + "NEEDLE" + "b".repeat(3000);
  const cut = cutLine(line, [[5000, 5006]], { maxChars: 250 });
  assert.match(cut, /^…\(\+4,925 chars\)a+NEEDLEb+…\(\+2,831 chars\)$/);
  const window = cut.replace(/…\(\+[\d,]+ chars\)/g, "");
  assert.equal(window.length, 250);
  assert.ok(window.includes("NEEDLE"));
});

Deno.test("cutLine at the start of a line cuts only the tail", () => {
  const cut = cutLine("NEEDLE" + "x".repeat(1000), [[0, 6]], { maxChars: 100 });
  assert.equal(cut, "NEEDLE" + "x".repeat(94) + "…(+906 chars)");
});

Deno.test("cutLine never splits a surrogate pair", () => {
  const line = "🦕".repeat(200);
  const cut = cutLine(line, [[200, 202]], { maxChars: 51 });
  for (const part of cut.split(/…\(\+[\d,]+ chars\)/)) assert.equal(part, part.toWellFormed());
});
