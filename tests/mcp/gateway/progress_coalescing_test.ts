import assert from "node:assert/strict";
import { coalesceProgress } from "../../../mcp/gateway/progress_coalescing.ts";
import type { JSONRPCMessage, Transport } from "../../../lib/mcp/sdk.ts";

const progress = (token: string | number, value: number) =>
  ({
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken: token, progress: value },
  }) as JSONRPCMessage;

/** A transport whose onmessage records what reaches the SDK, coalesced; `receive` plays the server. */
function wired(): { seen: string[]; receive(message: JSONRPCMessage): void; close(): void } {
  const seen: string[] = [];
  const transport = {
    onmessage: (message: JSONRPCMessage) => {
      const params = (message as { params?: { progressToken?: unknown; progress?: number } }).params;
      seen.push(
        "method" in message
          ? `${message.method} ${params?.progressToken ?? ""}:${params?.progress ?? ""}`
          : "result",
      );
    },
    onclose: () => {},
  } as unknown as Transport;
  coalesceProgress(transport);
  return {
    seen,
    receive: (message) => transport.onmessage!(message),
    close: () => transport.onclose!(),
  };
}

Deno.test("progress coalescing: 100,000 notifications of two calls, then a log and a result: each call's latest, in order", () => {
  const { seen, receive, close } = wired();
  for (let i = 1; i <= 50_000; i++) {
    receive(progress("a", i));
    receive(progress(7, i));
  }
  receive(progress("a", 50_001));
  receive({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } });
  receive({ jsonrpc: "2.0", id: 1, result: {} });
  assert.deepEqual(seen, [
    "notifications/progress 7:50000",
    "notifications/progress a:50001",
    "notifications/message :",
    "result",
  ]);
  close();
});

Deno.test("progress coalescing: the latest waits one turn of the event loop; memory stays bounded by token count", async () => {
  const { seen, receive, close } = wired();
  for (let i = 1; i <= 1_000; i++) receive(progress("a", i));
  assert.deepEqual(seen, []);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(seen, ["notifications/progress a:1000"]);
  // A flood of distinct tokens is delivered as it comes once 256 wait: nothing holds more than that.
  for (let i = 0; i < 1_000; i++) receive(progress(`t${i}`, 1));
  assert.ok(seen.length > 1 + 1_000 - 257, `${seen.length - 1} of 1,000 delivered at once`);
  close();
});
