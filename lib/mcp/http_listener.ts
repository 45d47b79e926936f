/**
 * The socket side of HTTP mode: our own accept loop over `Deno.listen`, each connection served by Deno's HTTP
 * engine (hyper, as under Deno.serve; http_connection.ts). It adds what Deno.serve lacks (Deno 2.9.6):
 * - accepting again after EMFILE/ENFILE. Deno.serve's loop ends on its first failed accept and closes the
 *   port for good (its `finished` rejects); here an accept that failed for want of descriptors or memory
 *   backs off and retries, logged once a minute. Any other failure is one connection's (reset while queued:
 *   ENOTCONN, ECONNABORTED): it is skipped at once, since any local user can cause one per connection.
 * - dropping a connection whose request headers do not arrive. Hyper runs there without a timer, so a
 *   half-sent request or an idle keep-alive connection is held forever (denoland/deno#3515; measured: still
 *   held after 100 s); here each request's headers must arrive within `headersTimeoutMs` of the connection
 *   opening or of its previous answer.
 * - a cap on open connections that a client without the token cannot fill: at the cap, a new connection
 *   drops the oldest one no request passed the token check on; only when all passed is it turned away.
 * One accepted connection is served with Deno's internal `serveHttpOnConnection`; a Deno without it gets
 * Deno.serve (http_listener_fallback.ts), which still recovers from EMFILE but cannot time out headers.
 * @module
 */
import {
  type ConnectionHandler,
  oldestUnadmitted,
  serveConnection,
  serveOnConnection,
  type Slot,
} from "./http_connection.ts";
import { log } from "../log.ts";
import { throttled } from "../log_throttle.ts";

/** Where and how to listen. */
export interface ListenOptions {
  hostname: string;
  port: number;
  /** 0 never times out. */
  headersTimeoutMs: number;
  /**
   * Connections served at once; one past it drops the oldest never admitted, or is closed at once when all
   * were admitted (not under the fallback).
   */
  maxConnections: number;
  /** Answers a request whose handler threw. */
  onError: (error: unknown) => Response;
}

export type { Connection, ConnectionHandler } from "./http_connection.ts";

/** A listening socket. */
export interface Listener {
  readonly addr: Deno.NetAddr;
  /** Connections open now; undefined under the fallback, which cannot see them. */
  connectionCount(): number | undefined;
  /** Stops accepting, then waits for every connection's answers in progress. */
  close(): Promise<void>;
}

/** The first retry after a failed accept, doubled on each further failure up to the maximum. */
export const ACCEPT_BACKOFF_MS = { initial: 10, max: 1_000 };

/**
 * Error codes (Deno's `error.code`, the same names on Windows) of an accept that failed because the process or
 * system ran out of something: retrying at once would spin, so these alone back off.
 */
const RESOURCE_SHORTAGE = new Set(["EMFILE", "ENFILE", "ENOBUFS", "ENOMEM"]);

/** Whether a failed accept means the process is short of descriptors or memory (not one bad connection). */
export function isResourceShortage(error: unknown): boolean {
  return RESOURCE_SHORTAGE.has((error as { code?: unknown })?.code as string);
}

/** Logs the first accept failure, then at most one line a minute, with how many failed since the last. */
export function acceptFailureLog(): (error: unknown) => void {
  const write = throttled((message) => log.error(message));
  return (error) => write(`mcp http: cannot accept connections (${(error as Error).message}); retrying`);
}

/** Binds the port (throws AddrInUse or NotCapable as Deno.listen does) and starts accepting. */
export async function listen(handler: ConnectionHandler, options: ListenOptions): Promise<Listener> {
  const serveOn = serveOnConnection();
  if (!serveOn) {
    log.info(
      "mcp http: this Deno cannot serve one connection at a time; slow request headers are not timed out",
    );
    const { listenWithDenoServe } = await import("./http_listener_fallback.ts");
    return await listenWithDenoServe(handler, options);
  }
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  // In the order they were accepted: the first unadmitted one is the oldest.
  const connections = new Set<Slot>();
  let closed = false;
  const backoff: { timer?: ReturnType<typeof setTimeout>; wake: () => void } = { wake: () => {} };
  // Any client can make its connection fail (reset, bad HTTP): even the debug log must not repeat per connection.
  const logConnectionError = throttled((why) => log.debug(`mcp http: a connection failed: ${why}`));

  const logRefusal = throttled((why) =>
    log.error(`mcp http: closing new connections: ${why} (MCP_HTTP_MAX_CONNECTIONS)`)
  );
  const logEviction = throttled((why) =>
    log.error(
      `mcp http: ${why}: dropping the oldest that never passed the token check (MCP_HTTP_MAX_CONNECTIONS)`,
    )
  );
  const logSkipped = throttled((why) =>
    log.info(`mcp http: skipped a connection that failed before it was accepted (${why})`)
  );
  const accepting = (async () => {
    const logFailure = acceptFailureLog();
    let delay = ACCEPT_BACKOFF_MS.initial;
    while (!closed) {
      let conn;
      try {
        conn = await listener.accept();
      } catch (error) {
        if (closed || error instanceof Deno.errors.BadResource) return;
        if (!isResourceShortage(error)) {
          // A connection reset or aborted while queued. Backing off here let anyone stall the port: each
          // queued reset cost up to a second (100 of them: ~90 s before a client with the token was heard).
          logSkipped((error as Error).message);
          continue;
        }
        // EMFILE/ENFILE/ENOBUFS/ENOMEM: the listener itself is fine; wait for descriptors to come back.
        logFailure(error);
        await new Promise<void>((resolve) => {
          backoff.wake = resolve;
          backoff.timer = setTimeout(resolve, delay);
        });
        delay = Math.min(delay * 2, ACCEPT_BACKOFF_MS.max);
        continue;
      }
      delay = ACCEPT_BACKOFF_MS.initial;
      if (connections.size >= options.maxConnections) {
        // Held connections cost memory until their headers time out, so their number is capped; but one
        // without the token must not keep out one with it: room is made by dropping an unadmitted one.
        const victim = oldestUnadmitted(connections);
        if (!victim) {
          logRefusal(`${connections.size} connections are open, each of which passed the token check`);
          conn.close();
          continue;
        }
        logEviction(`${connections.size} connections are open`);
        connections.delete(victim);
        victim.drop();
      }
      const slot = serveConnection(conn, serveOn, handler, options);
      connections.add(slot);
      slot.finished.catch((error) => logConnectionError((error as Error)?.message))
        .finally(() => connections.delete(slot));
    }
  })();

  return {
    addr: listener.addr,
    connectionCount: () => connections.size,
    async close() {
      closed = true;
      listener.close();
      clearTimeout(backoff.timer);
      backoff.wake();
      await accepting;
      await Promise.allSettled([...connections].map((connection) => connection.shutdown()));
    },
  };
}
