import assert from "node:assert/strict";
import { DROPPED_CODE, DroppedStreams } from "../../../mcp/gateway/dropped_streams.ts";
import type { JSONRPCMessage, Transport } from "../../../lib/mcp/sdk.ts";

/** A POST of request `id` answered by an SSE stream of `events`, which then breaks; what reached the SDK. */
async function breakAfter(events: string, id = 3): Promise<JSONRPCMessage[]> {
  const drops = new DroppedStreams();
  const seen: JSONRPCMessage[] = [];
  const transport = { onmessage: (message: JSONRPCMessage) => seen.push(message) } as unknown as Transport;
  drops.attach(transport);
  const fetch = drops.fetch(() => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new Error("cut"));
        sent = true;
        controller.enqueue(new TextEncoder().encode(events));
      },
    });
    return Promise.resolve(new Response(body, { headers: { "content-type": "text/event-stream" } }));
  });
  const response = await fetch("http://127.0.0.1/mcp", {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "x" } }),
  });
  await response.body!.pipeTo(new WritableStream()).catch(() => {});
  await new Promise((resolve) => setTimeout(resolve, 0));
  return seen;
}

Deno.test("dropped streams: a broken answer stream without an event id answers its request with DROPPED_CODE", async () => {
  const seen = await breakAfter("event: message\ndata: {}\n\n");
  assert.deepEqual(seen.map((message) => (message as { error?: { code: number } }).error?.code), [
    DROPPED_CODE,
  ]);
});

Deno.test("dropped streams: a resumable stream (an event id) is left to the SDK's reconnection", async () => {
  assert.deepEqual(await breakAfter("id: 17\nevent: message\ndata: {}\n\n"), []);
});
