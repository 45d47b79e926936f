/**
 * Connects a server to stdio and exits cleanly on stdin EOF, SIGINT or SIGTERM, after its cleanup. The
 * handshake is answered before the SDK is loaded (`quick_start.ts`), unless the SDK server already exists.
 * @module
 */
import { answerHandshake, dropReplayedAnswer } from "./quick_start.ts";
import { loadServerSdk, type McpServerHandle } from "./server.ts";
import { platform } from "../platform/mod.ts";
import { log } from "../log.ts";

/** A cleanup that hangs must not keep a dead client's server alive. */
const SHUTDOWN_GRACE_MS = 5_000;

/** Serves `handle` over stdin/stdout until the client goes away or a signal arrives. */
export async function serveStdio(handle: McpServerHandle): Promise<void> {
  let stopping = false;
  const shutdown = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.debug(`${handle.name}-mcp: shutting down (${reason})`);
    const timer = setTimeout(() => Deno.exit(0), SHUTDOWN_GRACE_MS);
    try {
      await handle.close();
    } catch (error) {
      log.error(`${handle.name}-mcp: cleanup failed`, error);
    }
    clearTimeout(timer);
    Deno.exit(0);
  };
  for (const signal of platform.shutdownSignals) {
    Deno.addSignalListener(signal, () => shutdown(signal));
  }
  // A stray rejection in one tool call must not take the whole server (and the agent's tools) down.
  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    log.error(`${handle.name}-mcp: unhandled rejection`, event.reason);
  });
  const handshake = handle.serverBuilt
    ? undefined
    : await answerHandshake(handle.spec, Deno.stdin.readable, Deno.stdout.writable);
  await loadServerSdk();
  const { LineTransport } = await import("./line_transport.ts");
  const transport = new LineTransport(handshake?.input ?? Deno.stdin.readable, Deno.stdout.writable);
  if (handshake?.initialize) dropReplayedAnswer(transport, handshake.initialize);
  transport.onclose = () => shutdown("stdin closed");
  await handle.server.connect(transport);
}
