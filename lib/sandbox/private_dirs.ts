/**
 * The sandbox's own folders. The temp folder is one per sandbox (per server, per HTTP session): mode 0700,
 * the jobs' `/tmp` and `TMPDIR`, removed when the server closes; one a killed server left behind is removed
 * by the next server that starts (named by pid namespace, pid and start time, it is provably dead). The
 * cache folder is one per workspace and kept: package managers are pointed at it, so an install is not
 * downloaded again by every job, and the user's real caches are never written by a job.
 * @module
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { platform } from "../platform/mod.ts";
import { ensurePrivateDir, ownUid } from "../fs/private_dir.ts";
import { sha256Hex } from "../fs/sha256.ts";
import { listProcesses, processIdentity } from "../process/processes.ts";

const encoder = new TextEncoder();

/** `/tmp/continue-mcp-sandbox-<uid>`: a fixed place (not TMPDIR, which differs between processes). */
export async function sandboxParent(): Promise<string> {
  const parent = platform.lockParent(tmpdir());
  const uid = await ownUid(parent);
  const path = join(parent, `continue-mcp-sandbox-${uid ?? "user"}`);
  await ensurePrivateDir(path, { create: true });
  return path;
}

/** Creates a fresh private temp folder for one sandbox; returns its real path. */
export async function createTempDir(parent: string): Promise<string> {
  const self = await processIdentity();
  const id = self ? `${self.pidNamespace}-${Deno.pid}-${self.start}` : `x-${Deno.pid}-0`;
  const path = join(parent, `${id}-${crypto.randomUUID().slice(0, 8)}`);
  await Deno.mkdir(path, { mode: 0o700 });
  await Deno.chmod(path, 0o700); // the umask may have narrowed it; never widened
  return await Deno.realPath(path);
}

/** Removes a temp folder and all the jobs left in it. */
export async function removeTempDir(path: string): Promise<void> {
  await Deno.remove(path, { recursive: true }).catch(() => {});
}

/**
 * Removes the temp folders (and filter files) of servers of our PID namespace that no longer run (a pid
 * with another start time is another process). Those of other namespaces (containers) are left alone.
 */
export async function sweepDeadTempDirs(parent: string): Promise<string[]> {
  const self = await processIdentity();
  const rows = await listProcesses();
  if (!self || !rows) return [];
  const live = new Set(rows.map((row) => `${row.pid}-${row.start}`));
  const removed: string[] = [];
  for await (const entry of Deno.readDir(parent)) {
    // A temp folder, or the seccomp filter file, proxy socket folder or scripts folder beside it.
    const match = /^(\d+)-(\d+)-(\d+)-[0-9a-f]{8}(\.bpf|\.net|\.scripts)?$/.exec(entry.name);
    if (!match || entry.isSymlink || match[1] !== self.pidNamespace) continue;
    if (live.has(`${match[2]}-${match[3]}`)) continue;
    await removeTempDir(join(parent, entry.name));
    removed.push(entry.name);
  }
  return removed;
}

/**
 * The private cache of the workspace whose roots are `roots`: `<cache home>/continue-mcp/sandbox/<hash>`,
 * else (no usable home) under `parent`. Created 0700.
 */
export async function cacheDir(
  roots: readonly string[],
  env: Record<string, string | undefined>,
  parent: string,
): Promise<string> {
  const hash = (await sha256Hex(encoder.encode([...roots].sort().join("\n")))).slice(0, 16);
  const home = env.XDG_CACHE_HOME?.startsWith("/")
    ? env.XDG_CACHE_HOME
    : env.HOME && join(env.HOME, ".cache");
  const candidates = [home && join(home, "continue-mcp", "sandbox", hash), join(parent, `cache-${hash}`)];
  let lastError: unknown;
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      await ensurePrivateDir(candidate, { create: true });
      return await Deno.realPath(candidate);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** A sandbox's own folders: the parent of all, its temp folder, and its seccomp filter's file. */
export interface SandboxDirs {
  parent: string;
  temp: string;
  /** Beside the temp folder, not in it: a job writes its /tmp and must not swap the next job's filter. */
  filter?: string;
  /**
   * The proxy's socket folder (created by the proxy), beside the temp folder: under /tmp, which every job's
   * sandbox replaces. Absent when the path would be too long for a socket (the proxy then makes its own).
   */
  network?: string;
  /**
   * The long commands' script files, beside the temp folder: every job of the server writes its /tmp, so a
   * script there could be rewritten by another job before its shell reads it (seen). Jobs see it read-only.
   */
  scripts: string;
}

/** Longest socket folder path: `<folder>/job-<n>.sock` must fit a socket address (proxy.ts). */
const MAX_NETWORK_DIR = 84;

/** Sweeps dead servers' temp folders, makes this sandbox's, and writes the filter (when the CPU has one). */
export async function createSandboxDirs(filter: Uint8Array | null): Promise<SandboxDirs> {
  const parent = await sandboxParent();
  await sweepDeadTempDirs(parent).catch(() => {});
  const temp = await createTempDir(parent);
  const network = `${temp}.net`.length <= MAX_NETWORK_DIR ? `${temp}.net` : undefined;
  const scripts = `${temp}.scripts`;
  await Deno.mkdir(scripts, { mode: 0o700 });
  if (!filter) return { parent, temp, network, scripts };
  const path = `${temp}.bpf`;
  await Deno.writeFile(path, filter, { mode: 0o600, createNew: true });
  return { parent, temp, filter: path, network, scripts };
}

/** Removes a sandbox's temp folder and filter file. */
export async function removeSandboxDirs(dirs: SandboxDirs): Promise<void> {
  await removeTempDir(dirs.temp);
  if (dirs.filter) await Deno.remove(dirs.filter).catch(() => {});
  if (dirs.network) await Deno.remove(dirs.network, { recursive: true }).catch(() => {});
  await Deno.remove(dirs.scripts, { recursive: true }).catch(() => {});
}
