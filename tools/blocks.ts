/** Continue block files (`.continue/mcpServers/<name>.yaml`) for each server. */
import { VERSION } from "../lib/version.ts";
import { join } from "node:path";
import { listServers, REPO_ROOT, type ServerEntry } from "./catalog.ts";

/**
 * The block file wiring `<name>-mcp` into Continue. `name`, `version` and `schema: v1` are all required:
 * Continue's CLI silently ignores a block without `version`.
 */
export function blockYaml(server: ServerEntry, command = `${server.name}-mcp`): string {
  return [
    `name: ${server.name}-mcp`,
    `version: ${VERSION}`,
    "schema: v1",
    "mcpServers:",
    `  - name: ${server.name}`,
    `    command: ${JSON.stringify(command)}`,
    "    args: []",
    "",
  ].join("\n");
}

/** The servers Continue runs directly; a tail server is reached through the gateway instead. */
export function directServers(): ServerEntry[] {
  return listServers().filter((server) => !server.tail);
}

/**
 * Rewrites the ready-to-copy examples in this repository's `.continue/mcpServers/` (direct servers only),
 * only those whose text changed: `.continue/` is read-only to a sandboxed shell job (Continue runs what it
 * names), so `deno task sync` run by an agent through shell-mcp succeeds when the blocks are up to date.
 */
export async function writeExampleBlocks(root = REPO_ROOT): Promise<void> {
  const dir = join(root, ".continue", "mcpServers");
  await Deno.mkdir(dir, { recursive: true });
  for (const server of directServers()) {
    const path = join(dir, `${server.name}.yaml`);
    const text = blockYaml(server);
    if (await Deno.readTextFile(path).catch(() => undefined) !== text) await Deno.writeTextFile(path, text);
  }
}
