/**
 * A server's process: stdio by default, Streamable HTTP with `--http [HOST:]PORT` (http.ts). Exits cleanly
 * on stdin EOF (stdio), SIGINT or SIGTERM, after the cleanup of every server instance. Over stdio the
 * handshake is answered before the SDK is loaded (`quick_start.ts`), unless the SDK server already exists.
 * @module
 */
import { answerHandshake, replayedAnswer } from "./quick_start.ts";
import { loadServerSdk, type McpServerHandle } from "./server.ts";
import type { BootServer } from "./http.ts";
import { parseServeArgs, UsageError } from "./serve_args.ts";
import { isLoopback } from "./http_guard.ts";
import { platform } from "../platform/mod.ts";
import { log } from "../log.ts";

/** A cleanup that hangs must not keep a dead client's server alive. */
const SHUTDOWN_GRACE_MS = 5_000;

/** Builds a server from the arguments left once the transport flags are taken out. */
export type BootFromArgs = (args: readonly string[]) => McpServerHandle | Promise<McpServerHandle>;

/** What a server's entry accepts besides the transport flags. */
export interface ServeOptions {
  /** The server reads arguments of its own (the gateway's `--config`); otherwise any is an error. */
  passArgs?: boolean;
  /** Defaults to Deno.args and Deno.env. */
  args?: readonly string[];
  env?: Record<string, string | undefined>;
}

/**
 * Serves the server `boot` builds, over stdio or, with `--http [HOST:]PORT`, over Streamable HTTP
 * (where each session, or each request with `--stateless`, gets its own instance from `boot`).
 */
export async function serve(boot: BootFromArgs, options: ServeOptions = {}): Promise<void> {
  const env = options.env ?? Deno.env.toObject();
  let parsed;
  try {
    parsed = parseServeArgs(options.args ?? Deno.args, env);
    if (parsed.rest.length && !options.passArgs) {
      throw new UsageError(`Unknown argument "${parsed.rest[0]}"; usage: [--http [HOST:]PORT] [--stateless]`);
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    log.error(error.message);
    Deno.exit(2);
  }
  const { http, rest } = parsed;
  if (!http) return serveStdio(await boot(rest));
  const bootSession: BootServer = () => boot(rest);
  let server;
  try {
    // Loaded only here: a stdio server starts without the HTTP transport's modules.
    const { serveHttp } = await import("./http.ts");
    server = await serveHttp(bootSession, http);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.AddrInUse)) throw error;
    const { hostname, port } = http.listen;
    log.error(
      error instanceof Deno.errors.AddrInUse
        ? `Cannot listen on ${hostname}:${port}: the port is in use`
        : `Cannot listen on ${hostname}:${port}: HTTP mode needs --allow-net=${hostname} (stdio does not)`,
    );
    Deno.exit(2);
  }
  log.info(`MCP server listening on ${server.url}${http.stateless ? " (stateless)" : ""}`);
  if (!isLoopback(http.listen.hostname)) {
    log.info("Reachable from the network: every request needs the bearer token");
  }
  onShutdown((reason) => {
    log.debug(`mcp http: shutting down (${reason})`);
    return server.close();
  });
}

/** Serves `handle` over stdin/stdout until the client goes away or a signal arrives. */
export async function serveStdio(handle: McpServerHandle): Promise<void> {
  const shutdown = onShutdown((reason) => {
    log.debug(`${handle.name}-mcp: shutting down (${reason})`);
    return handle.close();
  });
  const handshake = handle.serverBuilt
    ? undefined
    : await answerHandshake(handle.spec, Deno.stdin.readable, Deno.stdout.writable);
  await loadServerSdk();
  // Loaded with the SDK, after the handshake: the transport checks messages with the SDK's schemas.
  const { LineTransport } = await import("./line_transport.ts");
  const transport = new LineTransport(
    handshake?.input ?? Deno.stdin.readable,
    Deno.stdout,
    handshake?.initialize ? { dropAnswer: replayedAnswer(handshake.initialize) } : {},
  );
  transport.onclose = () => shutdown("stdin closed");
  await handle.server.connect(transport);
}

/** Runs `cleanup` once on SIGINT/SIGTERM (or the returned trigger), then exits; a stray rejection is logged. */
function onShutdown(cleanup: (reason: string) => Promise<void>): (reason: string) => Promise<void> {
  let stopping = false;
  const shutdown = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => Deno.exit(0), SHUTDOWN_GRACE_MS);
    try {
      await cleanup(reason);
    } catch (error) {
      log.error("MCP server: cleanup failed", error);
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
    log.error("MCP server: unhandled rejection", event.reason);
  });
  return shutdown;
}
