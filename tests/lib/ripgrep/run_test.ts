import assert from "node:assert/strict";
import { requireRipgrep } from "../../../lib/ripgrep/locate.ts";
import { RipgrepRun } from "../../../lib/ripgrep/run.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

Deno.test("RipgrepRun.lines never builds a line over maxChars: the sink gets it piece by piece", async () => {
  await using ws = await tempWorkspace({ "big.txt": `needle ${"x".repeat(3_000_000)}\nneedle two\n` });
  const run = new RipgrepRun(await requireRipgrep(), ["--no-config", "--json", "needle", "big.txt"], {
    cwd: ws.path,
  });
  let pieces = 0;
  let chars = 0;
  const lines: string[] = [];
  for await (
    const line of run.lines({
      maxChars: 50_000,
      oversize: () => ({
        push(piece) {
          pieces++;
          chars += piece.length;
          assert.ok(piece.length <= 1_000_000, `a piece of ${piece.length} characters`);
        },
        finish: () => "(oversized)",
      }),
    })
  ) lines.push(line);
  assert.equal((await run.exit).code, 0);
  assert.ok(pieces > 1, "the long line arrived in pieces");
  assert.ok(chars > 3_000_000);
  assert.equal(lines.length, 5);
  assert.equal(lines[1], "(oversized)");
  assert.match(lines[2], /^\{"type":"match".*"needle two\\n"/);
  assert.ok(lines.every((line) => line.length <= 50_000));
});

Deno.test("RipgrepRun.lines keeps the first maxChars characters of a long line by default", async () => {
  await using ws = await tempWorkspace({ "big.txt": `${"y".repeat(200_000)}\n` });
  const run = new RipgrepRun(await requireRipgrep(), ["--no-config", "-N", "y", "big.txt"], { cwd: ws.path });
  const lines: string[] = [];
  for await (const line of run.lines({ maxChars: 1_000 })) lines.push(line);
  assert.deepEqual(lines, ["y".repeat(1_000)]);
});
