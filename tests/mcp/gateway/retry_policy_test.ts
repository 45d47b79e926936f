import assert from "node:assert/strict";
import { breakerOpen, DEFAULT_RETRY, retryDelayMs } from "../../../mcp/gateway/retry_policy.ts";

Deno.test("retryDelayMs: at once, then 1 s doubling up to the cap, then the breaker's cool-down", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 9].map((failures) => retryDelayMs(failures)), [
    0,
    1_000,
    2_000,
    4_000,
    60_000,
    60_000,
  ]);
  const options = { ...DEFAULT_RETRY, maxDelayMs: 3_000, breakerThreshold: 10 };
  assert.deepEqual([4, 6, 9].map((failures) => retryDelayMs(failures, options)), [3_000, 3_000, 3_000]);
  assert.equal(retryDelayMs(10, options), 60_000);
});

Deno.test("breakerOpen: from the threshold on", () => {
  assert.ok(!breakerOpen(4));
  assert.ok(breakerOpen(5));
});
