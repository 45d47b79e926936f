/** Builds the gateway from its config: downstream connections, the ranking, the four tools. */
import { loadServerSdk, type McpServerHandle } from "../../lib/mcp/server.ts";
import { loadConfig } from "./config.ts";
import { refuseStatelessHosting } from "./stateless.ts";
import { ConfigWatcher } from "./config_watch.ts";
import { Downstreams } from "./downstream.ts";
import { createFinder } from "./finder.ts";
import { createServer } from "./server.ts";
import { relayUpstream } from "./relay.ts";
import { gatewayInstructions } from "./instructions.ts";
import { gateInitialize } from "../../lib/mcp/initialize_gate.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";

/** How long the answer to initialize waits for downstream servers: the instructions name what is up by then. */
const INSTRUCTIONS_WAIT_MS = 3_000;

/**
 * The gateway for `--config <file>` (else `$MCP_GATEWAY_CONFIG`); throws ConfigError on a bad config, or,
 * `stateless`, on one hosting the shell builtin (stateless.ts). Later edits of the file apply without a
 * restart (hot reload, config_watch.ts).
 */
export async function boot(
  args: readonly string[],
  env: Record<string, string | undefined>,
  options: { stateless?: boolean } = {},
): Promise<McpServerHandle> {
  const config = await loadConfig(configFlag(args), env);
  if (options.stateless) refuseStatelessHosting(config);
  const downstreams = new Downstreams(config.servers);
  const watcher = config.file
    ? new ConfigWatcher({ file: config.file, env, apply: (next) => downstreams.reconfigure(next.servers) })
    : undefined;
  await loadServerSdk();
  return frontDownstreams(downstreams, {
    workspaceRoots: Workspace.fromEnv().roots,
    configError: () => watcher?.error(),
    cleanup: async () => {
      await watcher?.close();
      await downstreams.close();
    },
  });
}

/** How the gateway fronts its downstream servers. */
export interface FrontOptions {
  /** Answers a downstream roots/list when the client's roots cannot be had. */
  workspaceRoots: readonly string[];
  configError?: () => string | undefined;
  cleanup: () => Promise<void>;
  /** How long the answer to initialize waits for the servers (default {@link INSTRUCTIONS_WAIT_MS}). */
  waitMs?: number;
}

/**
 * The gateway server in front of `downstreams`. They connect when the client's initialize arrives,
 * declaring only what the client declared (capabilities.ts); the answer waits for them up to `waitMs`, so
 * its instructions name what is up by then, and servers that connect later join the catalog when they do.
 * Call {@link loadServerSdk} before: the initialize gate needs the SDK server at once, so the gateway
 * never takes the quick handshake.
 */
export function frontDownstreams(downstreams: Downstreams, options: FrontOptions): McpServerHandle {
  const handle = createServer({
    backend: {
      catalog: () => {
        // A server that was never up has no tool to call: a search is what brings it back.
        downstreams.retryDown().catch(() => {});
        return downstreams.catalog();
      },
      status: () => downstreams.status(),
      configError: () => options.configError?.(),
      call: (name, args, callOptions) => downstreams.call(name, args, callOptions),
      revive: (name) => downstreams.revive(name),
    },
    finder: createFinder(),
    cleanup: options.cleanup,
  });
  relayUpstream(downstreams, handle, options.workspaceRoots);
  gateInitialize(handle.server, {
    async prepare(capabilities) {
      await downstreams.declare(capabilities);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise((resolve) =>
        timer = setTimeout(resolve, options.waitMs ?? INSTRUCTIONS_WAIT_MS)
      );
      await Promise.race([downstreams.start(), waited]);
      clearTimeout(timer);
    },
    instructions: () => gatewayInstructions(downstreams.status()),
  });
  return handle;
}

/** `--config file` or `--config=file`. */
export function configFlag(args: readonly string[]): string | undefined {
  for (const [i, arg] of args.entries()) {
    if (arg === "--config") return args[i + 1];
    if (arg.startsWith("--config=")) return arg.slice("--config=".length);
  }
  return undefined;
}
