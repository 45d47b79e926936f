/**
 * A remote MCP server on 127.0.0.1 whose answer streams break: a real Streamable HTTP server (the SDK's,
 * stateless, answering over SSE) with tools `ok`, `drop` (the call's SSE stream sends one progress event,
 * then its connection is cut), `hang_up` (one event, then the stream ends without an answer) and
 * `drop_resumable` (as `drop`, the event with an id, so the SDK tries to resume: this server refuses GET).
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "../../../../lib/mcp/sdk.ts";
import { McpServer } from "../../../../lib/mcp/sdk_client.ts";

/** A running server and its endpoint. */
export interface Dropper extends AsyncDisposable {
  url: string;
}

/** One SSE event, then `end`: the stream errors (the connection is cut) or closes. */
function brokenStream(
  request: { id: unknown; token: unknown },
  end: "error" | "close",
  eventId = "",
): Response {
  const event = {
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken: request.token ?? 0, progress: 1, total: 10 },
  };
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        const id = eventId ? `id: ${eventId}\n` : "";
        controller.enqueue(
          new TextEncoder().encode(`${id}event: message\ndata: ${JSON.stringify(event)}\n\n`),
        );
      } else if (end === "error") {
        controller.error(new Error("connection cut"));
      } else {
        controller.close();
      }
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

/** Starts the server on a free port. */
export function startDropper(): Dropper {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405 });
    const message = await request.clone().json().catch(() => ({}));
    const name = message?.params?.name;
    if (message?.method === "tools/call" && ["drop", "hang_up", "drop_resumable"].includes(name)) {
      const call = { id: message.id, token: message.params?._meta?.progressToken };
      return brokenStream(
        call,
        name === "hang_up" ? "close" : "error",
        name === "drop_resumable" ? "17" : "",
      );
    }
    const mcp = new McpServer({ name: "dropper", version: "1.0.0" });
    for (const name of ["ok", "drop", "hang_up", "drop_resumable"]) {
      mcp.registerTool(name, { description: `Tool ${name}` }, () => ({
        content: [{ type: "text", text: `${name} done` }],
      }));
    }
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await mcp.connect(transport);
    return await transport.handleRequest(request);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}
