/**
 * Which config entries reach the same server: two entries with one endpoint share one connection, so a
 * server listed twice (say, under two names with different tool filters) runs once.
 * @module
 */
import type { ServerConfig } from "./types.ts";

/**
 * A key equal for two entries exactly when they start the same server: same command, args, cwd and env
 * (env in any order); a builtin is `builtin:<name>`. A remote entry is never shared: each has OAuth tokens
 * of its own (two entries for one URL may be two accounts), so its key holds its config file and name.
 */
export function endpointKey(config: ServerConfig): string {
  const transport = config.transport;
  if (transport.kind === "builtin") return `builtin:${transport.server}`;
  if (transport.kind === "remote") {
    const headers = Object.entries(transport.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const owner = [transport.configFile ?? null, config.name];
    return `remote:${
      JSON.stringify([...owner, transport.url, transport.protocol, headers, transport.oauth])
    }`;
  }
  const env = Object.entries(transport.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `stdio:${JSON.stringify([transport.command, transport.args, transport.cwd ?? null, env])}`;
}
