/** The servers of this toolkit, found by walking `mcp/*\/server.json`: one list for doctor, install, tests. */
import { join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";

/** One server as declared by its `mcp/<name>/server.json`. */
export interface ServerEntry {
  name: string;
  /** Absolute path of `mcp/<name>/main.ts`. */
  entry: string;
  /** One line for the README table. */
  summary: string;
  /** Exactly the `--allow-*` flags the server needs: its capability list. */
  permissions: string[];
  /** Data files read at run time, which `deno compile` must embed (`--include`). */
  include?: string[];
  /** Behind the gateway (`{ "builtin": "<name>" }`) instead of wired into Continue directly: no block file. */
  tail?: boolean;
  /** A harmless call doctor makes to prove the server works. */
  smoke?: { tool: string; arguments?: Record<string, unknown> };
}

/** The repository root. */
export const REPO_ROOT: string = fromFileUrl(new URL("..", import.meta.url));

/** Every server under `mcp/`, sorted by name. */
export function listServers(): ServerEntry[] {
  const servers: ServerEntry[] = [];
  for (const dir of Deno.readDirSync(join(REPO_ROOT, "mcp"))) {
    if (!dir.isDirectory) continue;
    const manifest = join(REPO_ROOT, "mcp", dir.name, "server.json");
    let meta: Omit<ServerEntry, "name" | "entry">;
    try {
      meta = JSON.parse(Deno.readTextFileSync(manifest));
    } catch {
      continue;
    }
    servers.push({ name: dir.name, entry: join(REPO_ROOT, "mcp", dir.name, "main.ts"), ...meta });
  }
  return servers.sort((a, b) => a.name.localeCompare(b.name));
}

/** The `deno run` argv that starts a server over stdio, never prompting for a permission. */
export function runArgs(server: ServerEntry): string[] {
  return ["run", "--no-prompt", "--quiet", ...server.permissions, server.entry];
}
