/**
 * The stateful side of HTTP mode: one server instance per `Mcp-Session-Id`. `initialize` opens a session,
 * DELETE (or the server closing) ends it and runs its cleanup, an unknown id gets 404, and a session with no
 * open stream and no request for `sessionIdleMs` is closed: a client that vanished without DELETE leaves
 * nothing. At most `maxSessions` are open: a new one first evicts the longest-idle session without an open
 * stream, else it is refused with 503; a session never used after its initialize goes after `unusedSessionMs`.
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "./sdk.ts";
import type { McpServerHandle } from "./server.ts";
import type { JsonRpcBody } from "./http_body.ts";
import type { HttpLimits } from "./http_limits.ts";
import { afterBody, jsonRpcError } from "./http_response.ts";
import { log } from "../log.ts";

/** The limits a session table applies. */
export type SessionLimits = Pick<HttpLimits, "maxSessions" | "unusedSessionMs" | "sessionIdleMs">;

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  handle: McpServerHandle;
  /** Responses still streaming (a GET stream, a POST answer in progress). */
  openStreams: number;
  lastSeen: number;
  /** Past its handshake: it sent more than initialize and notifications/initialized, or opened a stream. */
  used: boolean;
  /** Resolved while the client's GET stream is open: where requests outside a call must travel. */
  getStream: PromiseWithResolvers<void>;
  getStreamOpen: boolean;
}

/** The open sessions of one HTTP server. */
export class SessionTable {
  readonly #sessions = new Map<string, Session>();
  readonly #boot: () => McpServerHandle | Promise<McpServerHandle>;
  readonly #limits: SessionLimits;
  readonly #sweeper: ReturnType<typeof setInterval> | undefined;
  /** Initialize requests past the cap check whose session does not exist yet (they count against it). */
  #opening = 0;
  /** Refusing new sessions since the last one opened (logged once a run). */
  #full = false;

  /** A 0 duration keeps such sessions until DELETE or shutdown. */
  constructor(boot: () => McpServerHandle | Promise<McpServerHandle>, limits: SessionLimits) {
    this.#boot = boot;
    this.#limits = limits;
    const durations = [limits.sessionIdleMs, limits.unusedSessionMs].filter((ms) => ms > 0);
    if (durations.length) {
      // Sessions expire at most half their limit late.
      const sweeper = setInterval(() => this.#closeIdle(), Math.min(...durations, 60_000) / 2);
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
    if (request.method === "GET" || (body && !body.handshakeOnly)) session.used = true;
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
    if (!this.#makeRoom()) {
      if (!this.#full) {
        this.#full = true;
        log.info(`mcp http: refusing new sessions, ${this.#limits.maxSessions} open and all in use`);
      }
      return jsonRpcError(
        503,
        `Service Unavailable: ${this.#limits.maxSessions} sessions are open and in use; end one with DELETE or retry later`,
      );
    }
    this.#full = false;
    this.#opening++;
    try {
      return await this.#start(request, body);
    } finally {
      this.#opening--;
    }
  }

  /** True when a session may open: below the cap, or once the longest-idle session without a stream is closed. */
  #makeRoom(): boolean {
    if (this.#sessions.size + this.#opening < this.#limits.maxSessions) return true;
    let oldest: [string, Session] | undefined;
    for (const entry of this.#sessions) {
      if (entry[1].openStreams === 0 && (!oldest || entry[1].lastSeen < oldest[1].lastSeen)) oldest = entry;
    }
    if (!oldest) return false;
    const idle = Math.round((performance.now() - oldest[1].lastSeen) / 1000);
    this.#end(oldest[0], oldest[1], `to make room for a new one (idle for ${idle} s)`);
    return true;
  }

  async #start(request: Request, body: JsonRpcBody): Promise<Response> {
    const handle = await this.#boot();
    const session: Session = {
      handle,
      openStreams: 0,
      lastSeen: performance.now(),
      used: false,
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
      const limit = session.used ? this.#limits.sessionIdleMs : this.#limits.unusedSessionMs;
      if (session.openStreams > 0 || limit === 0 || now - session.lastSeen < limit) continue;
      const seconds = Math.round((now - session.lastSeen) / 1000);
      this.#end(
        id,
        session,
        session.used ? `idle for ${seconds} s` : `unused since its initialize ${seconds} s ago`,
      );
    }
  }

  #end(id: string, session: Session, why: string): void {
    log.info(`${session.handle.name}-mcp: closing session ${id}, ${why}`);
    this.#sessions.delete(id);
    session.handle.close().catch((error) => log.error(`${session.handle.name}-mcp: cleanup failed`, error));
  }
}
