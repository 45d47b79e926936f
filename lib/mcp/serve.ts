/**
 * A server's process: stdio by default, Streamable HTTP with `--http [HOST:]PORT` (http.ts), where every
 * request needs the bearer token (http_auth.ts) unless `--no-auth` on loopback says otherwise. Exits cleanly
 * on stdin EOF (stdio), SIGINT or SIGTERM, after the cleanup of every server instance. Over stdio the
 * handshake is answered before the SDK is loaded (`quick_start.ts`), unless the SDK server already exists;
 * given the server's manifest, before the server is even built. This module and what it imports statically
 * stay free of zod, the SDK and the tool modules: they are a stdio server's whole cold start.
 * @module
 */
import { answerHandshake, replayedAnswer } from "./quick_start.ts";
import type { McpServerHandle } from "./server.ts";
import type { ServerManifest } from "./manifest.ts";
import type { BootServer } from "./http.ts";
import { isHttpEnvName, parseServeArgs, UsageError } from "./serve_args.ts";
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
  /**
   * The server's committed handshake: over stdio it answers initialize and tools/list before `boot` runs,
   * so `boot` should import the server's modules itself (a dynamic import) and be quick to fail.
   */
  manifest?: ServerManifest;
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
      throw new UsageError(
        `Unknown argument "${parsed.rest[0]}"; usage: [--http [HOST:]PORT] [--stateless] [--no-auth]`,
      );
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    log.error(error.message);
    Deno.exit(2);
  }
  scrubHttpEnv();
  const { http, rest } = parsed;
  if (!http) return serveStdio(() => boot(rest), options.manifest);
  const bootSession: BootServer = () => boot(rest);
  // The token is per port (http_token.ts), and port 0 is known once bound: requests wait for it meanwhile.
  const token = Promise.withResolvers<string | undefined>();
  // Loaded only here: a stdio server starts without them.
  const { reportPortInUse, warnOfPortSharers } = await import("./http_port_holder.ts");
  let server;
  try {
    const { serveHttp } = await import("./http.ts");
    server = await serveHttp(bootSession, { ...http, token: token.promise });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.AddrInUse)) throw error;
    if (error instanceof Deno.errors.AddrInUse) {
      await reportPortInUse(http.listen, http.auth, env);
    } else {
      const { hostname, port } = http.listen;
      log.error(
        `Cannot listen on ${hostname}:${port}: HTTP mode needs --allow-net=${hostname} (stdio does not)`,
      );
    }
    Deno.exit(2);
  }
  try {
    await warnOfPortSharers(server.port, http.auth, env);
    const { resolveToken } = await import("./http_auth.ts");
    token.resolve(await resolveToken(http.auth, env, server.port));
  } catch (error) {
    const { TokenFileError } = await import("./http_token.ts");
    if (!(error instanceof TokenFileError)) throw error;
    log.error(error.message);
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

/**
 * Removes `MCP_HTTP_*` (the token above all) from this process's environment once read, in either mode, so
 * no child inherits them: shell jobs, the gateway's downstream servers, ripgrep, sqlfluff. The shell and the gateway also filter
 * them out of the environments they build, in case a variable comes back.
 */
function scrubHttpEnv(): void {
  for (const name of Object.keys(Deno.env.toObject())) {
    if (isHttpEnvName(name)) Deno.env.delete(name);
  }
}

/**
 * Serves the server `boot` builds over stdin/stdout until the client goes away or a signal arrives. With
 * `manifest` the handshake is answered first and `boot` runs after it.
 */
export async function serveStdio(
  boot: () => McpServerHandle | Promise<McpServerHandle>,
  manifest?: ServerManifest,
): Promise<void> {
  let handle: McpServerHandle | undefined;
  const shutdown = onShutdown(async (reason) => {
    log.debug(`${handle?.name ?? manifest?.name ?? "MCP"}-mcp: shutting down (${reason})`);
    await handle?.close();
  });
  const handshake = manifest
    ? await answerHandshake(manifest, Deno.stdin.readable, Deno.stdout.writable)
    : undefined;
  if (handshake?.initialize) {
    // A client that only listed the tools is gone: exit without loading the server it would not use.
    handshake.closedIdle.then(() => shutdown("stdin closed after the handshake"));
    await handshake.wanted;
  }
  try {
    handle = await boot();
  } catch (error) {
    // Exit non-zero: the unhandled-rejection guard below would otherwise keep a server that never started.
    log.error(`${manifest?.name ?? "MCP"}-mcp: cannot start`, error);
    Deno.exit(1);
  }
  // Loaded after the handshake: the server module pulls in zod and the tool table.
  const { loadServerSdk, manifestOfSpec } = await import("./server.ts");
  if (manifest) warnOnDrift(manifest, manifestOfSpec(handle.spec));
  const quick = handshake ??
    (handle.serverBuilt
      ? undefined
      : await answerHandshake(manifestOfSpec(handle.spec), Deno.stdin.readable, Deno.stdout.writable));
  await loadServerSdk();
  // Loaded with the SDK, after the handshake: the transport checks messages with the SDK's schemas.
  const { LineTransport } = await import("./line_transport.ts");
  const transport = new LineTransport(
    quick?.input ?? Deno.stdin.readable,
    Deno.stdout,
    quick?.initialize ? { dropAnswer: replayedAnswer(quick.initialize) } : {},
  );
  transport.onclose = () => shutdown("stdin closed");
  await handle.server.connect(transport);
}

/** A committed handshake that no longer matches the server told the client something untrue: say so. */
function warnOnDrift(committed: ServerManifest, built: ServerManifest): void {
  if (JSON.stringify(committed) === JSON.stringify(built)) return;
  log.error(
    `${built.name}-mcp: its committed tools.json or instructions differ from its tool table, and the ` +
      "client was shown the committed ones; regenerate tools.json with `deno task test:update`",
  );
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
