import assert from "node:assert/strict";
import { throttled } from "../../lib/log_throttle.ts";

Deno.test("throttled: the first line is written, a flood within the interval is counted into the next line", () => {
  const lines: string[] = [];
  let clock = 0;
  const write = throttled((message) => lines.push(message), 60_000, () => clock);
  for (let i = 0; i < 1000; i++) write(`refused ${i}`);
  assert.deepEqual(lines, ["refused 0"]);
  clock = 60_000;
  write("refused again");
  write("held");
  assert.deepEqual(lines, ["refused 0", "refused again (999 more like it since the last report)"]);
  clock = 120_000;
  write("later");
  assert.equal(lines.at(-1), "later (1 more like it since the last report)");
});
