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

/**
 * The flags HTTP mode needs beyond a server's own (stdio needs none of them): the network (`net`: hosts, or ""
 * for any), its uid (the token file's owner check) and, for servers that write nothing otherwise, the token
 * folder (`tokenDir`; unscoped without it, as in a compiled executable that does not know its user yet). A flag
 * the server already has unscoped is not repeated: Deno would narrow it to the scoped one.
 */
export function httpPermissions(server: ServerEntry, options: { net: string; tokenDir?: string }): string[] {
  const has = (flag: string) => server.permissions.some((own) => own === flag || own.startsWith(`${flag}=`));
  return [
    ...(has("--allow-net") ? [] : [options.net ? `--allow-net=${options.net}` : "--allow-net"]),
    ...(has("--allow-sys") ? [] : ["--allow-sys=uid"]),
    ...(has("--allow-write")
      ? []
      : [options.tokenDir ? `--allow-write=${options.tokenDir}` : "--allow-write"]),
  ];
}
