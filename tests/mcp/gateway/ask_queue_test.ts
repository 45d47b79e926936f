import assert from "node:assert/strict";
import { AskQueue } from "../../../mcp/gateway/ask_queue.ts";

Deno.test("AskQueue: one ask at a time, in order; an aborted waiter leaves at once and the next runs after the first", async () => {
  const queue = new AskQueue();
  const order: string[] = [];
  const first = Promise.withResolvers<string>();
  const a = queue.run(new AbortController().signal, () => {
    order.push("a");
    return first.promise;
  });
  const stop = new AbortController();
  const b = queue.run(stop.signal, () => {
    order.push("b");
    return Promise.resolve("b");
  });
  const c = queue.run(new AbortController().signal, () => {
    order.push("c");
    return Promise.resolve("c");
  });
  stop.abort(new Error("gone"));
  await assert.rejects(b, /gone/);
  assert.deepEqual(order, ["a"], "c still waits for a");
  first.resolve("a");
  assert.deepEqual([await a, await c], ["a", "c"]);
  assert.deepEqual(order, ["a", "c"]);
});

Deno.test("AskQueue: an ask whose signal aborts while it runs frees the queue when it settles", async () => {
  const queue = new AskQueue();
  const stop = new AbortController();
  const held = queue.run(
    stop.signal,
    () =>
      new Promise<string>((_, reject) =>
        stop.signal.addEventListener("abort", () => reject(stop.signal.reason))
      ),
  );
  const next = queue.run(new AbortController().signal, () => Promise.resolve("next"));
  stop.abort(new Error("withdrawn"));
  await assert.rejects(held, /withdrawn/);
  assert.equal(await next, "next");
});
