/** Builds the gateway from its config: downstream connections, the ranking, the four tools. */
import { loadServerSdk, type McpServerHandle } from "../../lib/mcp/server.ts";
import { loadConfig } from "./config.ts";
import { ConfigWatcher } from "./config_watch.ts";
import { Downstreams } from "./downstream.ts";
import { createFinder } from "./finder.ts";
import { createServer } from "./server.ts";
import { relayUpstream } from "./relay.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";

/** How long start-up waits for downstream servers before answering: the instructions name what is up by then. */
const INSTRUCTIONS_WAIT_MS = 3_000;

/**
 * The gateway for `--config <file>` (else `$MCP_GATEWAY_CONFIG`); throws ConfigError on a bad config.
 * Later edits of the file apply without a restart (hot reload, config_watch.ts).
 */
export async function boot(
  args: readonly string[],
  env: Record<string, string | undefined>,
): Promise<McpServerHandle> {
  const config = await loadConfig(configFlag(args), env);
  const downstreams = new Downstreams(config.servers);
  const watcher = config.file
    ? new ConfigWatcher({ file: config.file, env, apply: (next) => downstreams.reconfigure(next.servers) })
    : undefined;
  const started = downstreams.start();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([started, new Promise((resolve) => timer = setTimeout(resolve, INSTRUCTIONS_WAIT_MS))]);
  clearTimeout(timer);
  const handle = createServer({
    backend: {
      catalog: () => {
        // A server that was never up has no tool to call: a search is what brings it back.
        downstreams.retryDown().catch(() => {});
        return downstreams.catalog();
      },
      status: () => downstreams.status(),
      configError: () => watcher?.error(),
      call: (name, args, options) => downstreams.call(name, args, options),
    },
    finder: createFinder(),
    cleanup: async () => {
      await watcher?.close();
      await downstreams.close();
    },
  });
  await loadServerSdk();
  relayUpstream(downstreams, handle, Workspace.fromEnv().roots);
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
