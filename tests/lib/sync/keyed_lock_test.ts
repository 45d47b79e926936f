import assert from "node:assert/strict";
import { KeyedLock } from "../../../lib/sync/keyed_lock.ts";

Deno.test("KeyedLock runs work on one key in order, other keys alongside, and survives failures", async () => {
  const lock = new KeyedLock();
  const events: string[] = [];
  let releaseFirst!: () => void;
  const first = lock.run("a", async () => {
    events.push("a1 start");
    await new Promise<void>((resolve) => releaseFirst = resolve);
    events.push("a1 end");
    throw new Error("a1 failed");
  });
  const second = lock.run("a", () => {
    events.push("a2");
    return Promise.resolve(2);
  });
  const other = lock.run("b", () => {
    events.push("b1");
    return Promise.resolve("b");
  });
  assert.equal(await other, "b");
  assert.deepEqual(events, ["a1 start", "b1"], "b does not wait for a; a2 waits for a1");
  releaseFirst();
  await assert.rejects(first, /a1 failed/);
  assert.equal(await second, 2);
  assert.deepEqual(events, ["a1 start", "b1", "a1 end", "a2"]);
});
