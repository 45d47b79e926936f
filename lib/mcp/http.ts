/**
 * Streamable HTTP mode: `/mcp` served over our own listener (http_listener.ts) with the SDK's web-standard
 * transport. Stateful by default (one server instance per `Mcp-Session-Id`, http_sessions.ts); stateless on
 * request (one server instance per POST). Every request passes the guard first (http_guard.ts), and every
 * POST body is read within the limits (http_limits.ts) and parsed before a server instance is built for it.
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "./sdk.ts";
import { loadServerSdk, type McpServerHandle } from "./server.ts";
import { type ListenAddress, refuseRequest } from "./http_guard.ts";
import { afterBody, jsonRpcError, plainText } from "./http_response.ts";
import { type JsonRpcBody, readJsonRpc } from "./http_body.ts";
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from "./http_limits.ts";
import { type Connection, listen } from "./http_listener.ts";
import { SessionTable } from "./http_sessions.ts";
import { log } from "../log.ts";
import { throttled } from "../log_throttle.ts";

/** Builds one server instance: called once per session (stateful) or per request (stateless). */
export type BootServer = () => McpServerHandle | Promise<McpServerHandle>;

/** A session nobody streams from or sends to for this long is closed (its cleanup runs). */
export const DEFAULT_SESSION_IDLE_MS = DEFAULT_HTTP_LIMITS.sessionIdleMs;

/** How to serve; each limit left out keeps its default ({@link DEFAULT_HTTP_LIMITS}). */
export interface HttpOptions extends Partial<HttpLimits> {
  listen: ListenAddress;
  /** Required bearer token, when set; requests wait while it is a pending promise. */
  token?: string | Promise<string | undefined>;
  /** No sessions: every POST gets a fresh server instance and no `Mcp-Session-Id`. */
  stateless?: boolean;
}

/** A running HTTP server. */
export interface HttpServer {
  /** The endpoint, with the port actually bound: `http://127.0.0.1:8808/mcp`. */
  readonly url: string;
  /** The port actually bound. */
  readonly port: number;
  /** Open sessions (always 0 when stateless). */
  sessionCount(): number;
  /** Open connections; undefined on a Deno whose listener cannot count them (http_listener_fallback.ts). */
  connectionCount(): number | undefined;
  /** Stops listening and closes every session (running each server's cleanup). */
  close(): Promise<void>;
}

/** The one path served; anything else is 404, so a stray browser request learns nothing. */
export const MCP_PATH = "/mcp";

/** Starts serving; resolves once the port is bound. */
export async function serveHttp(boot: BootServer, options: HttpOptions): Promise<HttpServer> {
  // Each session's handle builds its SDK server at first use, which needs the SDK loaded.
  await loadServerSdk();
  const limits = withDefaults(options);
  const sessions = new SessionTable(boot, limits);
  let port = options.listen.port;
  // Anyone who reaches the port can send refused requests: they must not flood the log.
  const logRefusal = throttled((message) => log.info(message));
  // A request that makes the handler throw is a bug; if an outsider can trigger it, it must not flood either.
  const logFailure = throttled((message) => log.error(message));
  const handler = async (request: Request, connection: Connection): Promise<Response> => {
    // The URL is made from the Host header, which anyone may send malformed (`127.0.0.1:99999`): no throw.
    const path = URL.parse(request.url)?.pathname;
    if (path === undefined) {
      logRefusal(`mcp http: refused ${request.method} (400): a Host header that names no host`);
      return plainText(400, "Bad request: the Host header names no valid host");
    }
    if (path !== MCP_PATH) return plainText(404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    const refusal = await refuseRequest(request, {
      listen: options.listen,
      port,
      token: await options.token,
    });
    if (refusal) {
      logRefusal(`mcp http: refused ${request.method} (${refusal.status}): ${refusal.message}`);
      return jsonRpcError(refusal.status, refusal.message, refusal.status === 401);
    }
    connection.admit();
    let body: JsonRpcBody | undefined;
    if (request.method === "POST") {
      const read = await readJsonRpc(request, {
        maxBytes: limits.maxBodyBytes,
        timeoutMs: limits.bodyTimeoutMs,
        // A body that stalls holds its connection: it goes, rather than wait for bytes that may never come.
        onTimeout: () => connection.drop(),
      });
      if (read instanceof Response) return read;
      body = read;
    }
    return options.stateless
      ? await handleStateless(boot, request, body)
      : await sessions.handle(request, body);
  };
  const listener = await listen(handler, {
    hostname: options.listen.hostname,
    port: options.listen.port,
    headersTimeoutMs: limits.headersTimeoutMs,
    maxConnections: limits.maxConnections,
    onError: (error) => {
      logFailure(`mcp http: request failed: ${error instanceof Error ? error.stack : String(error)}`);
      return jsonRpcError(500, "Internal server error");
    },
  });
  const address = listener.addr;
  port = address.port;
  const host = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname;
  return {
    url: `http://${host}:${address.port}${MCP_PATH}`,
    port: address.port,
    sessionCount: () => sessions.size,
    connectionCount: () => listener.connectionCount(),
    async close() {
      await sessions.closeAll();
      await listener.close();
    },
  };
}

async function handleStateless(boot: BootServer, request: Request, body?: JsonRpcBody): Promise<Response> {
  if (request.method !== "POST" || !body) {
    return jsonRpcError(405, "Method not allowed: this server is stateless, send each request as a POST");
  }
  // Notifications and responses alone need no answer, and a fresh instance could do nothing with them.
  if (!body.hasRequest) return new Response(null, { status: 202 });
  const handle = await boot();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await handle.server.connect(transport);
  const response = await transport.handleRequest(request, { parsedBody: body.parsed });
  // The answer may still be streaming (SSE): the instance lives until its body is done or dropped.
  return afterBody(response, () => {
    handle.close().catch((error) => log.error(`${handle.name}-mcp: cleanup failed`, error));
  });
}

/** Each limit as given, else its default (an explicit `undefined` included). */
function withDefaults(options: Partial<HttpLimits>): HttpLimits {
  const limits = { ...DEFAULT_HTTP_LIMITS };
  for (const key of Object.keys(limits) as (keyof HttpLimits)[]) limits[key] = options[key] ?? limits[key];
  return limits;
}
