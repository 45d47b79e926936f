/** Config entries for the downstream tests: the fixture servers under _servers/ and this project's servers. */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { listServers, runArgs } from "../../../tools/catalog.ts";
import type { ServerConfig } from "../../../mcp/gateway/types.ts";

const SERVERS_DIR = fileURLToPath(new URL("./_servers/", import.meta.url));

const defaults = (name: string): Omit<ServerConfig, "transport"> => ({
  name,
  prefix: name,
  enabled: true,
  connectTimeoutMs: 20_000,
  callTimeoutMs: 20_000,
  tools: { allow: [], deny: [] },
  descriptions: {},
});

/** An entry spawning `_servers/<script>` with `deno run`. */
export function scriptServer(
  name: string,
  script: string,
  options: Partial<Omit<ServerConfig, "transport">> & { env?: Record<string, string> } = {},
): ServerConfig {
  const { env = {}, ...rest } = options;
  return {
    ...defaults(name),
    transport: {
      kind: "stdio",
      command: Deno.execPath(),
      args: ["run", "--no-prompt", "--quiet", "-A", join(SERVERS_DIR, script)],
      env,
    },
    ...rest,
  };
}

/** An entry spawning this project's `mcp/<server>/main.ts` exactly as a client would. */
export function projectServer(name: string, server: string, cwd: string): ServerConfig {
  const entry = listServers().find((candidate) => candidate.name === server);
  if (!entry) throw new Error(`No server "${server}" under mcp/`);
  return {
    ...defaults(name),
    transport: { kind: "stdio", command: Deno.execPath(), args: runArgs(entry), env: {}, cwd },
  };
}

/** An entry hosting this project's server in process. */
export function builtinServer(name: string, server: string): ServerConfig {
  return { ...defaults(name), transport: { kind: "builtin", server } };
}

/**
 * `entry` run under a POSIX `sh` that closes its own stdout and outlives the server: when the server exits
 * (the hostile server's `closeout`), the gateway's child is alive and its stdout at EOF.
 */
export function closeOutWrapper(entry: ServerConfig): ServerConfig {
  if (entry.transport.kind !== "stdio") throw new Error("a stdio entry");
  const { command, args } = entry.transport;
  // A background job's stdin is /dev/null unless given: the server gets the wrapper's through fd 3.
  const script = 'exec 3<&0; "$@" <&3 3<&- & exec 1>&- 3<&-; wait; exec sleep 300';
  return {
    ...entry,
    transport: { ...entry.transport, command: "sh", args: ["-c", script, "sh", command, ...args] },
  };
}
