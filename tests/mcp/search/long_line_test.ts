/**
 * One huge line must not sink a search. The real failure needs a 512 MB line (`Invalid string length`);
 * here a 2 MB line and a 20,000-character record cap show the same path: the record is shrunk while it
 * streams and the page reads as if the line had been read whole. Memory over a 520 MB line is measured by
 * bench/search_long_line.ts.
 */
import assert from "node:assert/strict";
import { requireRipgrep } from "../../../lib/ripgrep/locate.ts";
import { grep, type GrepRequest } from "../../../mcp/search/grep.ts";
import { renderGrep } from "../../../mcp/search/render.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { GIT } from "./_connect.ts";

const LONG = `needle ${"x".repeat(2_000_000)} needle`;

async function search(root: string, request: Partial<GrepRequest>, maxRecordChars?: number): Promise<string> {
  const full: GrepRequest = { pattern: "needle", paths: ["."], limit: 100, ...request };
  const outcome = await grep(await requireRipgrep(), full, { cwd: root, timeoutMs: 60_000, maxRecordChars });
  return renderGrep(outcome, {
    pattern: full.pattern,
    where: ".",
    mode: full.mode ?? "lines",
    offset: 0,
    context: full.context ?? 0,
    multiline: full.multiline,
    timeoutMs: 60_000,
  });
}

Deno.test("search_grep over a line past the record cap answers every mode as if it had read it whole", async () => {
  await using ws = await tempWorkspace({
    ...GIT,
    "big.txt": `before\n${LONG}\nafter\n`,
    "small.txt": "a needle xx\n",
  });
  const requests: Partial<GrepRequest>[] = [
    {},
    { mode: "files" },
    { mode: "count" },
    { context: 1 },
    { multiline: true },
    { pattern: "needle x+", multiline: true },
  ];
  for (const request of requests) {
    const capped = await search(ws.path, request, 20_000);
    // The reference reads the 2 MB record whole.
    assert.equal(capped, await search(ws.path, request, 100_000_000), JSON.stringify(request));
    assert.match(capped, /small\.txt/, JSON.stringify(request));
  }
  assert.equal(
    await search(ws.path, { context: 1 }, 20_000),
    [
      "big.txt",
      "1-before",
      `2:needle ${"x".repeat(243)}…(+${(LONG.length - 250).toLocaleString("en-US")} chars)`,
      "3-after",
      "",
      "small.txt",
      "1:a needle xx",
      "",
      "2 matching lines in 2 files",
    ].join("\n"),
  );
});
