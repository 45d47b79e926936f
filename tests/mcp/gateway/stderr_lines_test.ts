import assert from "node:assert/strict";
import { LogBudget, MAX_LINE_CHARS, StderrLines } from "../../../mcp/gateway/stderr_lines.ts";

function lines(budget: LogBudget) {
  const written: string[] = [];
  const shaped: string[] = [];
  const stderr = new StderrLines({
    shape: (line) => {
      shaped.push(line);
      return line.slice(0, 20);
    },
    write: (line) => written.push(line),
    budget,
  });
  return { stderr, written, shaped };
}

Deno.test("StderrLines: lines split across chunks and multibyte characters split across chunks", () => {
  const { stderr, written } = lines(new LogBudget(() => 0));
  const bytes = new TextEncoder().encode("héllo\nwor");
  stderr.push(bytes.subarray(0, 2));
  stderr.push(bytes.subarray(2));
  stderr.push("ld\n\n  \n");
  assert.deepEqual(written, ["héllo", "world"]);
});

Deno.test("StderrLines: a line without end is cut at MAX_LINE_CHARS and the rest of it dropped", () => {
  const { stderr, shaped } = lines(new LogBudget(() => 0));
  for (let i = 0; i < 10; i++) stderr.push("z".repeat(MAX_LINE_CHARS / 2));
  stderr.push("tail\nnext\n");
  assert.deepEqual(shaped.map((line) => line.length), [MAX_LINE_CHARS, 4]);
});

Deno.test("LogBudget: runs out, says so, counts what it dropped, refills with time", () => {
  let now = 0;
  const { stderr, written, shaped } = lines(new LogBudget(() => now, 100));
  for (let i = 0; i < 50; i++) stderr.push(`line ${i} ${"x".repeat(20)}\n`);
  assert.equal(written.length, 6, written.join("\n"));
  assert.match(written[5], /over its log budget/);
  assert.equal(shaped.length, 5, "dropped lines are not even shaped");
  now = 60_000;
  stderr.push("back\n");
  assert.deepEqual(written.slice(6), ["stderr: 45 lines not logged (over its log budget)", "back"]);
});
