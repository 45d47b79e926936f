/**
 * HTTP mode's listener on a Deno without `serveHttpOnConnection` (http_listener.ts): plain Deno.serve, whose
 * accept loop ends for good on EMFILE/ENFILE (`finished` rejects, the port closes). It is started again on
 * the same port after a backoff, until it binds; sessions live outside it and carry on. Request headers are
 * not timed out here.
 * @module
 */
import type { ConnectionHandler, Listener, ListenOptions } from "./http_listener.ts";
import { ACCEPT_BACKOFF_MS, acceptFailureLog } from "./http_listener.ts";

/** Serves with Deno.serve, restarting it on the bound port whenever its accept loop dies. */
export async function listenWithDenoServe(
  handler: ConnectionHandler,
  options: ListenOptions,
): Promise<Listener> {
  // Deno.serve shows no connection: refused ones are not closed here, nor is any dropped to make room.
  const connection = { drop() {}, admit() {} };
  const start = (port: number) => {
    const listening = Promise.withResolvers<Deno.NetAddr>();
    const server = Deno.serve({
      hostname: options.hostname,
      port,
      onListen: (addr) => listening.resolve(addr as Deno.NetAddr),
      onError: options.onError,
    }, (request) => handler(request, connection));
    return { server, listening: listening.promise };
  };
  const first = start(options.port);
  const addr = await first.listening;
  let current = first.server;
  let closed = false;
  const backoff: { timer?: ReturnType<typeof setTimeout>; wake: () => void } = { wake: () => {} };
  const retired: Deno.HttpServer[] = [];

  const restarting = (async () => {
    const logFailure = acceptFailureLog();
    for (;;) {
      const error = await current.finished.then(
        () => new Error("the server stopped"),
        (error: Error) => error,
      );
      if (closed) return;
      logFailure(error);
      // The old server still serves the connections it accepted; it is shut down with the rest.
      retired.push(current);
      for (let delay = ACCEPT_BACKOFF_MS.initial;; delay = Math.min(delay * 2, ACCEPT_BACKOFF_MS.max)) {
        await new Promise<void>((resolve) => {
          backoff.wake = resolve;
          backoff.timer = setTimeout(resolve, delay);
        });
        if (closed) return;
        try {
          current = start(addr.port).server;
          break;
        } catch {
          // Still out of descriptors, or the port was taken meanwhile: try again later.
        }
      }
    }
  })();

  return {
    addr,
    connectionCount: () => undefined,
    async close() {
      closed = true;
      clearTimeout(backoff.timer);
      backoff.wake();
      await Promise.allSettled([current, ...retired].map((server) => server.shutdown()));
      await restarting;
    },
  };
}
