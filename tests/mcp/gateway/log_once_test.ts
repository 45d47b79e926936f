import assert from "node:assert/strict";
import { OnceLog } from "../../../mcp/gateway/log_once.ts";

Deno.test("log once: a line said again is not written again; past the bound one note, then nothing", () => {
  const written: string[] = [];
  const log = new OnceLog((line) => written.push(line), 3);
  for (let round = 0; round < 100; round++) for (const line of ["a", "b"]) log.say(line);
  assert.deepEqual(written, ["a", "b"]);
  for (let i = 0; i < 1_000; i++) log.say(`new ${i}`);
  assert.deepEqual(written, [
    "a",
    "b",
    "new 0",
    "(3 distinct lines of this kind logged; further ones are not)",
  ]);
});
