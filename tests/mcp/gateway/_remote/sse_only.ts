/**
 * An MCP server that speaks only the old HTTP+SSE transport (protocol 2024-11-05): GET /sse opens the
 * event stream and names the POST endpoint; a POST to /sse (a Streamable HTTP initialize) gets 405, as an
 * old server answers, so a client must fall back. The SDK's own SSE server transport needs node's http
 * objects, so this small one speaks the wire format over Deno.serve.
 * @module
 */
import type { JSONRPCMessage, Transport } from "../../../../lib/mcp/sdk.ts";
import { McpServer } from "../../../../lib/mcp/sdk_client.ts";

/** A running SSE-only server. */
export interface SseOnlyServer extends AsyncDisposable {
  /** The URL a config names: the event stream's. */
  url: string;
  /** Streamable HTTP attempts refused with 405. */
  refusedPosts: number;
}

class SseStreamTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  constructor(readonly write: (event: string, data: string) => void, readonly end: () => void) {}
  start(): Promise<void> {
    return Promise.resolve();
  }
  send(message: JSONRPCMessage): Promise<void> {
    this.write("message", JSON.stringify(message));
    return Promise.resolve();
  }
  close(): Promise<void> {
    this.end();
    this.onclose?.();
    return Promise.resolve();
  }
}

/** Starts the server on a free 127.0.0.1 port. */
export function startSseOnlyServer(): SseOnlyServer {
  const sessions = new Map<string, SseStreamTransport>();
  const state = { refusedPosts: 0 };
  const encoder = new TextEncoder();
  const httpServer = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request): Promise<Response> => {
      const url = new URL(request.url);
      if (url.pathname === "/sse" && request.method === "GET") {
        const id = crypto.randomUUID();
        let controller!: ReadableStreamDefaultController<Uint8Array>;
        const body = new ReadableStream<Uint8Array>({
          start: (c) => void (controller = c),
          cancel: () => void sessions.get(id)?.close(),
        });
        const transport = new SseStreamTransport(
          (event, data) => controller.enqueue(encoder.encode(`event: ${event}\ndata: ${data}\n\n`)),
          () => {
            sessions.delete(id);
            try {
              controller.close();
            } catch { /* already closed */ }
          },
        );
        sessions.set(id, transport);
        const server = new McpServer({ name: "old-sse", version: "0.1.0" });
        server.registerTool("ping", { description: "Answer pong" }, () => ({
          content: [{ type: "text", text: "pong over sse" }],
        }));
        await server.connect(transport);
        transport.write("endpoint", `/messages?sessionId=${id}`);
        return new Response(body, {
          headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
        });
      }
      if (url.pathname === "/sse") {
        state.refusedPosts++;
        return new Response("Method Not Allowed", { status: 405 });
      }
      if (url.pathname === "/messages" && request.method === "POST") {
        const transport = sessions.get(url.searchParams.get("sessionId") ?? "");
        if (!transport) return new Response("no such session", { status: 404 });
        transport.onmessage?.(await request.json());
        return new Response("Accepted", { status: 202 });
      }
      return new Response("not found", { status: 404 });
    },
  );
  const close = async () => {
    for (const transport of sessions.values()) await transport.close();
    await httpServer.shutdown();
  };
  return {
    url: `http://127.0.0.1:${httpServer.addr.port}/sse`,
    get refusedPosts() {
      return state.refusedPosts;
    },
    [Symbol.asyncDispose]: close,
  };
}
