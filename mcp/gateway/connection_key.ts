/** Which config entries reach the same downstream server, so they can share one connection. */
import type { ServerConfig } from "./types.ts";

/** The same key for entries with the same command, args, cwd and env (in any order), or the same builtin. */
export function connectionKey(config: ServerConfig): string {
  const transport = config.transport;
  if (transport.kind === "builtin") return `builtin:${transport.server}`;
  const env = Object.entries(transport.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(["stdio", transport.command, transport.args, transport.cwd ?? "", env]);
}
