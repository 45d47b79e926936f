import assert from "node:assert/strict";
import { editDistance } from "../../../lib/text/distance.ts";

Deno.test("editDistance counts insertions, deletions, substitutions and neighbour swaps", () => {
  assert.equal(editDistance("format.ts", "format.ts"), 0);
  assert.equal(editDistance("fromat.ts", "format.ts"), 1, "a swap costs one");
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("abc", ""), 3);
});

Deno.test("editDistance with max gives up early with max + 1, never less than the truth", () => {
  assert.equal(editDistance("kitten", "sitting", 1), 2);
  assert.equal(editDistance("a", "abcdef", 2), 3);
  assert.equal(editDistance("ab", "ba", 1), 1);
  for (const [a, b] of [["config.ts", "cofnig.ts"], ["readme.md", "README.md"], ["x", "y"]]) {
    const exact = editDistance(a, b);
    for (let max = 0; max <= 6; max++) assert.equal(editDistance(a, b, max), Math.min(exact, max + 1));
  }
});

Deno.test("editDistance: typical path typos are one edit", () => {
  assert.equal(editDistance("main.ts", "mian.ts"), 1);
  assert.equal(editDistance("config", "confg"), 1);
  assert.equal(editDistance("abc", "xyz"), 3);
});
