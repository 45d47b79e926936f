/** ripgrep gives up on a file (PCRE2's match limit): the result says so, never a plain "No matches". */
import assert from "node:assert/strict";
import { textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { connectSearch, GIT } from "./_connect.ts";

// Nested quantifiers backtrack exponentially on a run of "a" that does not end the line.
const PATTERN = "(a+)+$|needle";
const HARD = `${"a".repeat(60)}b\nneedle here\n`;

Deno.test("search_grep: a file PCRE2 gave up on is an error when nothing else came back", async () => {
  await using ws = await tempWorkspace({ ...GIT, "a.txt": HARD });
  await using c = await connectSearch(ws.path);
  for (const mode of ["lines", "files", "count"]) {
    const result = await c.call("search_grep", { pattern: PATTERN, pcre2: true, mode });
    assert.equal(result.isError, true, mode);
    assert.equal(
      textOf(result),
      'Error [invalid_argument]: Cannot search for /(a+)+$|needle/ in "a.txt": PCRE2: error matching: match limit exceeded; simplify the pattern (nested repeats backtrack)',
      mode,
    );
  }
});

Deno.test("search_grep: a file PCRE2 gave up on is named in a note beside the other files' matches", async () => {
  await using ws = await tempWorkspace({ ...GIT, "a.txt": HARD, "b.txt": "a needle\n", "c.txt": "none\n" });
  await using c = await connectSearch(ws.path);
  const note = '1 file could not be searched (PCRE2: error matching: match limit exceeded): "a.txt"';
  assert.equal(
    await c.text("search_grep", { pattern: PATTERN, pcre2: true }),
    `b.txt\n1:a needle\n\n1 matching line in 1 file\n${note}`,
  );
  assert.equal(
    await c.text("search_grep", { pattern: PATTERN, pcre2: true, mode: "count" }),
    `b.txt:1\n\n1 matching line in 1 file\n${note}`,
  );
  // No match in the other files is no "No matches" either: the file left unsearched makes it an error.
  const none = await c.call("search_grep", { pattern: "(a+)+$|zzz", pcre2: true });
  assert.equal(none.isError, true);
  assert.equal(
    textOf(none),
    'Error [invalid_argument]: Cannot search for /(a+)+$|zzz/ in "a.txt": PCRE2: error matching: match limit exceeded (no match in the 2 other files searched); simplify the pattern (nested repeats backtrack)',
  );
});
