/**
 * One accepted connection of HTTP mode (http_listener.ts), served by Deno's HTTP engine through the
 * runtime-internal `serveHttpOnConnection`. What this adds to the engine:
 * - a request's headers must arrive within `headersTimeoutMs` of the connection opening or of its previous
 *   answer; otherwise the connection is dropped (hyper has no timer here, denoland/deno#3515).
 * - a request the handler does not admit (it did not pass the token check: 401, 403, 404, 400) is answered
 *   with `Connection: close` and its connection dropped once the answer is out. Hyper would otherwise read
 *   the rest of its body to keep the connection (measured: 200 MB in under a second, with no limit).
 * - whether any request on it was admitted, so a full server drops an unadmitted connection for a newcomer.
 * @module
 */
import { afterBody } from "./http_response.ts";

/**
 * The connection a request arrived on. A request whose handler does not `admit()` it is answered with
 * `Connection: close`, and its connection is dropped once that answer is sent: an unread body is never
 * drained, and nobody without the token keeps a connection.
 */
export interface Connection {
  /** Closes it at once, without an answer (a stalled body); a no-op under the fallback. */
  drop(): void;
  /** This request passed the guard: the connection stays open and is never dropped to make room. */
  admit(): void;
}

/** Answers one request. */
export type ConnectionHandler = (request: Request, connection: Connection) => Promise<Response>;

/** What Deno's engine returns for a connection it serves. */
interface ServedConnection {
  finished: Promise<void>;
  shutdown(): Promise<void>;
}

/** One open connection, as the accept loop sees it. */
export interface Slot {
  /** Settles when the connection ended, however it ended. */
  readonly finished: Promise<void>;
  /** Closes it gracefully: answers in progress are completed. */
  shutdown(): Promise<void>;
  /** Closes it at once. */
  drop(): void;
  /** A request on it passed the guard. */
  readonly admitted: boolean;
  /** Requests being answered on it. */
  readonly inFlight: number;
}

/**
 * The internal's shape in Deno 2.9.6: it only ever calls `signal.addEventListener("abort", cancel)`, and
 * passes each request's `completed` (settled once the answer was written, or failed).
 */
export type ServeOnConnection = (
  conn: Deno.Conn,
  signal: { addEventListener(type: "abort", cancel: () => void): void },
  handler: (request: Request, info?: { completed?: Promise<void> }) => Promise<Response>,
  onError: (error: unknown) => Response,
  onListen: () => void,
) => ServedConnection;

/** Deno's internal that serves one accepted connection, or undefined on a Deno without it. */
export function serveOnConnection(): ServeOnConnection | undefined {
  const deno = Deno as unknown as Record<symbol, Record<string, unknown> | undefined> & { internal?: symbol };
  const serve = deno.internal === undefined ? undefined : deno[deno.internal]?.serveHttpOnConnection;
  return typeof serve === "function" ? serve as ServeOnConnection : undefined;
}

/** How each connection is served. */
export interface ConnectionOptions {
  /** 0 never times out. */
  headersTimeoutMs: number;
  /** Answers a request whose handler threw. */
  onError: (error: unknown) => Response;
}

/** Serves `conn` with `serveOn`, each request answered by `handler`. */
export function serveConnection(
  conn: Deno.Conn,
  serveOn: ServeOnConnection,
  handler: ConnectionHandler,
  options: ConnectionOptions,
): Slot {
  let cancel: (() => void) | undefined;
  let ended = false;
  let admitted = false;
  let inFlight = 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  // Called by us rather than through an AbortSignal: once the connection has ended, the internal's cancel
  // throws BadResource, which an aborted signal would raise inside its event listener, beyond any catch.
  const drop = () => {
    if (ended) return;
    try {
      cancel?.();
    } catch {
      // It ended meanwhile.
    }
  };
  const awaitHeaders = () => {
    if (options.headersTimeoutMs > 0) idleTimer = setTimeout(drop, options.headersTimeoutMs);
  };
  const settle = () => {
    if (--inFlight === 0 && !ended) awaitHeaders();
  };
  const served = serveOn(
    conn,
    { addEventListener: (_type, fn) => void (cancel = fn) },
    async (request, info) => {
      clearTimeout(idleTimer);
      inFlight++;
      let passed = false;
      const admit = () => void (passed = admitted = true);
      let response;
      try {
        response = await handler(request, { drop, admit });
      } catch (error) {
        response = options.onError(error);
      }
      if (!passed) {
        response = withHeader(response, "connection", "close");
        // Without `completed` (another Deno), hyper still closes after the answer, if it drains first.
        info?.completed?.then(drop, drop);
      }
      return afterBody(response, settle);
    },
    options.onError,
    () => {},
  );
  awaitHeaders();
  const finished = served.finished.finally(() => {
    ended = true;
    clearTimeout(idleTimer);
  });
  return {
    finished,
    shutdown: () => served.shutdown(),
    drop,
    get admitted() {
      return admitted;
    },
    get inFlight() {
      return inFlight;
    },
  };
}

/**
 * The connection to drop for a newcomer: the oldest (`slots` in the order accepted) that no request passed
 * the guard on, preferring one not being answered right now (a client's first request may be on its way
 * through the guard). Undefined when every connection was admitted.
 */
export function oldestUnadmitted(slots: Iterable<Slot>): Slot | undefined {
  let busy: Slot | undefined;
  for (const slot of slots) {
    if (slot.admitted) continue;
    if (slot.inFlight === 0) return slot;
    busy ??= slot;
  }
  return busy;
}

/** The same response with one header set (a handler's response may have immutable headers). */
function withHeader(response: Response, name: string, value: string): Response {
  const headers = new Headers(response.headers);
  headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
