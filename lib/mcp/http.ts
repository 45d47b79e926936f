/**
 * Streamable HTTP mode: `Deno.serve` on `/mcp` with the SDK's web-standard transport. Stateful by default
 * (one server instance per `Mcp-Session-Id`, DELETE ends it, an unknown id gets 404); stateless on request
 * (one server instance per POST). Every request passes the guard first (http_guard.ts).
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "./sdk.ts";
import type { McpServerHandle } from "./server.ts";
import { type ListenAddress, refuseRequest } from "./http_guard.ts";
import { log } from "../log.ts";

/** Builds one server instance: called once per session (stateful) or per request (stateless). */
export type BootServer = () => McpServerHandle | Promise<McpServerHandle>;

/** How to serve. */
export interface HttpOptions {
  listen: ListenAddress;
  /** Required bearer token, when set. */
  token?: string;
  /** No sessions: every POST gets a fresh server instance and no `Mcp-Session-Id`. */
  stateless?: boolean;
}

/** A running HTTP server. */
export interface HttpServer {
  /** The endpoint, with the port actually bound: `http://127.0.0.1:8808/mcp`. */
  readonly url: string;
  /** Open sessions (always 0 when stateless). */
  sessionCount(): number;
  /** Stops listening and closes every session (running each server's cleanup). */
  close(): Promise<void>;
}

/** The one path served; anything else is 404, so a stray browser request learns nothing. */
export const MCP_PATH = "/mcp";

/** Starts serving; resolves once the port is bound. */
export async function serveHttp(boot: BootServer, options: HttpOptions): Promise<HttpServer> {
  const sessions = new Map<string, Session>();
  let port = options.listen.port;
  const handler = async (request: Request): Promise<Response> => {
    if (new URL(request.url).pathname !== MCP_PATH) {
      return plain(404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    }
    const refusal = refuseRequest(request, { listen: options.listen, port, token: options.token });
    if (refusal) {
      log.info(`mcp http: refused ${request.method} (${refusal.status}): ${refusal.message}`);
      return jsonRpcError(refusal.status, refusal.message, refusal.status === 401);
    }
    return options.stateless
      ? await handleStateless(boot, request)
      : await handleStateful(boot, sessions, request);
  };
  const listening = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve({
    hostname: options.listen.hostname,
    port: options.listen.port,
    onListen: (address) => listening.resolve(address as Deno.NetAddr),
    onError: (error) => {
      log.error("mcp http: request failed", error);
      return jsonRpcError(500, "Internal server error");
    },
  }, handler);
  const address = await listening.promise;
  port = address.port;
  const host = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname;
  return {
    url: `http://${host}:${address.port}${MCP_PATH}`,
    sessionCount: () => sessions.size,
    async close() {
      await Promise.allSettled([...sessions.values()].map((session) => session.handle.close()));
      await server.shutdown();
    },
  };
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  handle: McpServerHandle;
}

async function handleStateful(
  boot: BootServer,
  sessions: Map<string, Session>,
  request: Request,
): Promise<Response> {
  const id = request.headers.get("mcp-session-id");
  if (id !== null) {
    const session = sessions.get(id);
    if (!session) return jsonRpcError(404, "Session not found", false, -32001);
    return await session.transport.handleRequest(request);
  }
  if (request.method !== "POST") return jsonRpcError(400, "Bad Request: Mcp-Session-Id header is required");
  // No session yet: only an initialize may open one; the transport answers anything else with 400.
  const handle = await boot();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    onsessioninitialized: (sessionId) => {
      sessions.set(sessionId, { transport, handle });
      log.debug(`${handle.name}-mcp: session ${sessionId} opened`);
    },
  });
  transport.onclose = () => {
    // DELETE, shutdown, or the server closing itself: the session's resources go with it.
    if (transport.sessionId) sessions.delete(transport.sessionId);
    handle.close().catch((error) => log.error(`${handle.name}-mcp: cleanup failed`, error));
  };
  await handle.server.connect(transport);
  const response = await transport.handleRequest(request);
  if (transport.sessionId === undefined) await handle.close();
  return response;
}

async function handleStateless(boot: BootServer, request: Request): Promise<Response> {
  if (request.method !== "POST") {
    return jsonRpcError(
      405,
      "Method not allowed: this server is stateless, send each request as a POST",
      false,
    );
  }
  const handle = await boot();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await handle.server.connect(transport);
  const response = await transport.handleRequest(request);
  // The answer may still be streaming (SSE): the instance lives until its body is done or dropped.
  return afterBody(response, () => {
    handle.close().catch((error) => log.error(`${handle.name}-mcp: cleanup failed`, error));
  });
}

/** The same response, calling `done` once its body ended, failed or was cancelled by the client. */
function afterBody(response: Response, done: () => void): Response {
  if (!response.body) {
    done();
    return response;
  }
  const reader = response.body.getReader();
  let finished = false;
  const finish = () => {
    if (!finished) (finished = true, done());
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: ended } = await reader.read();
        if (ended) {
          controller.close();
          finish();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        finish();
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

function jsonRpcError(status: number, message: string, challenge = false, code = -32000): Response {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (challenge) headers["www-authenticate"] = 'Bearer realm="mcp"';
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers,
  });
}

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}
