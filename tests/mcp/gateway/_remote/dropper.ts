/**
 * A remote MCP server on 127.0.0.1 whose answer streams break: a real Streamable HTTP server (the SDK's,
 * stateless, answering over SSE) with tools `ok`, `drop` (the call's SSE stream sends one progress event,
 * then its connection is cut) and `hang_up` (one event, then the stream ends without an answer).
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "../../../../lib/mcp/sdk.ts";
import { McpServer } from "../../../../lib/mcp/sdk_client.ts";

/** A running server and its endpoint. */
export interface Dropper extends AsyncDisposable {
  url: string;
}

/** One SSE event, then `end`: the stream errors (the connection is cut) or closes. */
function brokenStream(request: { id: unknown; token: unknown }, end: "error" | "close"): Response {
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
        controller.enqueue(new TextEncoder().encode(`event: message\ndata: ${JSON.stringify(event)}\n\n`));
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
    if (message?.method === "tools/call" && ["drop", "hang_up"].includes(message.params?.name)) {
      const call = { id: message.id, token: message.params?._meta?.progressToken };
      return brokenStream(call, message.params.name === "drop" ? "error" : "close");
    }
    const mcp = new McpServer({ name: "dropper", version: "1.0.0" });
    for (const name of ["ok", "drop", "hang_up"]) {
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
