/** mode: count asks ripgrep to count (`--count`): a big file with many matches per line is counted exactly. */
import assert from "node:assert/strict";
import { tempWorkspace } from "../../_support/workspace.ts";
import { connectSearch, GIT } from "./_connect.ts";

Deno.test("search_grep mode count: 400,000 lines of 40 matches each, exact and without a timeout", async () => {
  await using ws = await tempWorkspace({ ...GIT, "small.csv": "a,b\nno\nc,d\n" });
  const line = "x,".repeat(40) + "\n";
  await Deno.writeTextFile(ws.join("big.csv"), line.repeat(400_000));
  // Parsing 16 million JSON submatches (the old way) takes far longer than this.
  await using c = await connectSearch(ws.path, { timeoutMs: 5_000 });
  assert.equal(
    await c.text("search_grep", { pattern: ",", mode: "count" }),
    "big.csv:400000\nsmall.csv:2\n\n400,002 matching lines in 2 files",
  );
  assert.equal(
    await c.text("search_grep", { pattern: ",", mode: "count", offset: 1 }),
    "small.csv:2\n\n400,002 matching lines in 2 files (showing files 2)",
  );
  assert.equal(
    await c.text("search_grep", { pattern: ",", mode: "count", path: "big.csv" }),
    "big.csv:400000\n\n400,000 matching lines in 1 file",
  );
});

Deno.test("search_grep mode count with multiline: ripgrep's count, a match spanning lines once", async () => {
  await using ws = await tempWorkspace({ ...GIT, "a.txt": "foo\nbar\nzz\nfoo\nbar\n", "b.txt": "foo\n" });
  await using c = await connectSearch(ws.path);
  assert.equal(
    await c.text("search_grep", { pattern: "foo\\nbar", multiline: true, mode: "count" }),
    "a.txt:2\n\n2 matches in 1 file",
  );
  // ripgrep's count does not say how many files it searched.
  assert.equal(await c.text("search_grep", { pattern: "zzz", mode: "count" }), "No matches for /zzz/ in .");
});
