/**
 * This project's servers the gateway can host in its own process (`{ "builtin": "fs" }`).
 *
 * The one deliberate exception to "one server never imports another": the gateway imports each server's
 * `boot.ts`, the same function its stdio entry runs. The imports are string literals so `deno compile`
 * embeds them, and dynamic so the gateway loads only the servers its config names.
 * @module
 */
import type { McpServerHandle } from "../../lib/mcp/server.ts";

type BootModule = { boot(): McpServerHandle };

const BUILTINS: Record<string, () => Promise<BootModule>> = {
  edit: () => import("../edit/boot.ts"),
  fs: () => import("../fs/boot.ts"),
  hello: () => import("../hello/boot.ts"),
  notes: () => import("../notes/boot.ts"),
  search: () => import("../search/boot.ts"),
  shell: () => import("../shell/boot.ts"),
  sql: () => import("../sql/boot.ts"),
};

/** Names accepted in `{ "builtin": <name> }`. */
export const BUILTIN_NAMES: readonly string[] = Object.keys(BUILTINS);

/** Loads and builds the named builtin server, configured from the gateway's environment. */
export async function bootBuiltin(name: string): Promise<McpServerHandle> {
  const load = Object.hasOwn(BUILTINS, name) ? BUILTINS[name] : undefined;
  if (!load) {
    throw new Error(
      `Cannot host "${name}" in process: not a server of this project (${BUILTIN_NAMES.join(", ")})`,
    );
  }
  return (await load()).boot();
}
