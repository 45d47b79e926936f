/**
 * The stateful side of HTTP mode: one server instance per `Mcp-Session-Id`. `initialize` opens a session,
 * DELETE (or the server closing) ends it and runs its cleanup, an unknown id gets 404, and a session with no
 * open stream and no request for `idleMs` is closed: a client that vanished without DELETE leaves nothing.
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "./sdk.ts";
import type { McpServerHandle } from "./server.ts";
import type { JsonRpcBody } from "./http_body.ts";
import { afterBody, jsonRpcError } from "./http_response.ts";
import { log } from "../log.ts";

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  handle: McpServerHandle;
  /** Responses still streaming (a GET stream, a POST answer in progress). */
  openStreams: number;
  lastSeen: number;
  /** Resolved while the client's GET stream is open: where requests outside a call must travel. */
  getStream: PromiseWithResolvers<void>;
  getStreamOpen: boolean;
}

/** The open sessions of one HTTP server. */
export class SessionTable {
  readonly #sessions = new Map<string, Session>();
  readonly #boot: () => McpServerHandle | Promise<McpServerHandle>;
  readonly #idleMs: number;
  readonly #sweeper: ReturnType<typeof setInterval> | undefined;

  /** `idleMs` 0 keeps idle sessions until DELETE or shutdown. */
  constructor(boot: () => McpServerHandle | Promise<McpServerHandle>, idleMs: number) {
    this.#boot = boot;
    this.#idleMs = idleMs;
    if (idleMs > 0) {
      const sweeper = setInterval(() => this.#closeIdle(), Math.min(idleMs, 60_000));
      // The sweep must not keep a process alive that has nothing else to do.
      Deno.unrefTimer(sweeper);
      this.#sweeper = sweeper;
    }
  }

  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Answers a request of an existing session, or opens one for an initialize without a session id. `body`
   * is a POST's body, already read and parsed.
   */
  async handle(request: Request, body?: JsonRpcBody): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    if (id === null) return await this.#open(request, body);
    const session = this.#sessions.get(id);
    if (!session) return jsonRpcError(404, "Session not found", false, -32001);
    const response = await session.transport.handleRequest(request, body && { parsedBody: body.parsed });
    if (request.method !== "GET" || !response.ok) return this.#track(session, response);
    session.getStreamOpen = true;
    session.getStream.resolve();
    return this.#track(session, response, () => {
      session.getStreamOpen = false;
      session.getStream = Promise.withResolvers();
    });
  }

  /** Closes every session, running each server's cleanup. */
  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    await Promise.allSettled([...this.#sessions.values()].map((session) => session.handle.close()));
  }

  async #open(request: Request, body?: JsonRpcBody): Promise<Response> {
    if (request.method !== "POST") return jsonRpcError(400, "Bad Request: Mcp-Session-Id header is required");
    // Only an initialize may open a session, and nothing else is worth building a server instance for.
    if (!body?.initialize) {
      return jsonRpcError(
        400,
        "Bad Request: Mcp-Session-Id header is required; open a session with initialize",
      );
    }
    const handle = await this.#boot();
    const session: Session = {
      handle,
      openStreams: 0,
      lastSeen: performance.now(),
      getStream: Promise.withResolvers(),
      getStreamOpen: false,
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (sessionId) => {
          this.#sessions.set(sessionId, session);
          log.debug(`${handle.name}-mcp: session ${sessionId} opened`);
        },
      }),
    };
    const { transport } = session;
    // The transport drops a request to the client outside a call (roots/list after initialize, say) when the
    // client's GET stream is not open yet; it waits for that stream instead (its own timeout still applies).
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      if (options?.relatedRequestId === undefined && "method" in message && "id" in message) {
        while (!session.getStreamOpen) await session.getStream.promise;
      }
      return await send(message, options);
    };
    transport.onclose = () => {
      // DELETE, shutdown, idleness or the server closing itself: the session's resources go with it.
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
      handle.close().catch((error) => log.error(`${handle.name}-mcp: cleanup failed`, error));
    };
    await handle.server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body.parsed });
    if (transport.sessionId === undefined) {
      await handle.close();
      return response;
    }
    return this.#track(session, response);
  }

  #track(session: Session, response: Response, onEnd?: () => void): Response {
    session.openStreams++;
    session.lastSeen = performance.now();
    return afterBody(response, () => {
      session.openStreams--;
      session.lastSeen = performance.now();
      onEnd?.();
    });
  }

  #closeIdle(): void {
    const now = performance.now();
    for (const [id, session] of this.#sessions) {
      if (session.openStreams > 0 || now - session.lastSeen < this.#idleMs) continue;
      log.info(
        `${session.handle.name}-mcp: closing session ${id}, idle for ${Math.round(this.#idleMs / 1000)} s`,
      );
      this.#sessions.delete(id);
      session.handle.close().catch((error) => log.error(`${session.handle.name}-mcp: cleanup failed`, error));
    }
  }
}
