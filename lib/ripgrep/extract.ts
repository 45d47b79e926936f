/**
 * The copy of the bundled ripgrep that a `deno compile`d server runs. There the bundled rg lives in the
 * executable's virtual file system, which cannot be executed, so it is copied out, under a name keyed by
 * version and content hash (two releases, or two targets sharing a home, never run each other's copy), to a
 * private folder of ours: `<cache>/continue-mcp/ripgrep` (0700), the cache root from the environment, else
 * under the home the account database gives for our uid, else a fresh private temp folder for this process.
 * Never a shared folder: another user could plant a file under the predictable name there. And a copy is
 * run only once it proved to be ours: our private regular file (no link), with the embedded bytes' SHA-256.
 * @module
 */
import { join } from "node:path";
import { checkAncestors, ensurePrivateDir, openPrivateFile, ownUid } from "../fs/private_dir.ts";
import { sha256Hex } from "../fs/sha256.ts";
import { accountHome, platform } from "../platform/mod.ts";

/**
 * Copies the embedded ripgrep at `embedded` out to a private folder (see above) and returns the checked
 * copy's path, or null when no folder of ours can hold it (a server without write permission).
 */
export async function extractEmbedded(
  embedded: string,
  env: Record<string, string | undefined>,
): Promise<string | null> {
  const bytes = await Deno.readFile(embedded);
  const digest = await sha256Hex(bytes);
  const name = extractedName(embedded, digest);
  for (const folder of await ripgrepCacheFolders(env)) {
    const copy = await copyInto(folder, name, bytes, digest).catch(() => null);
    if (copy) return copy;
  }
  // No cache folder of ours: a fresh one (mkdtemp: 0700, an unguessable name) for this process alone.
  const fresh = await Deno.makeTempDir({ prefix: "continue-mcp-rg-" }).catch(() => null);
  if (!fresh) return null;
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(fresh, { recursive: true });
    } catch {
      // Left in the temp folder: private, and a temp cleaner's to remove.
    }
  });
  return await copyInto(fresh, name, bytes, digest).catch(() => null);
}

/** `rg-15.0.0-1a2b3c4d5e6f[.exe]`: the package version from the embedded path, and the content's hash. */
export function extractedName(embedded: string, digest: string): string {
  const version = embedded.match(/ripgrep-[^/\\]+[/\\]([\d.]+)[/\\]/)?.[1] ?? "bundled";
  return `rg-${version}-${digest.slice(0, 12)}${platform.exeSuffix}`;
}

/**
 * The folders a copy may go to, best first: the cache root the environment names (`XDG_CACHE_HOME`,
 * `LOCALAPPDATA`, `HOME`/.cache), then the account's home; never the cwd (the workspace) nor a shared temp.
 */
export async function ripgrepCacheFolders(env: Record<string, string | undefined>): Promise<string[]> {
  const folders: string[] = [];
  const fromEnv = envCacheFolder(env);
  if (fromEnv) folders.push(fromEnv);
  const uid = await ownUid().catch(() => null);
  const home = uid === null ? null : await accountHome(uid);
  // An account home that does not exist ("/nonexistent") is never created.
  if (home && (await Deno.stat(home).catch(() => null))?.isDirectory) {
    folders.push(join(home, ".cache", "continue-mcp", "ripgrep"));
  }
  return [...new Set(folders)];
}

/** The copy's folder under the cache root the environment names, or null. */
export function envCacheFolder(env: Record<string, string | undefined>): string | null {
  const home = env.HOME ?? env.USERPROFILE;
  const root = env.XDG_CACHE_HOME ?? env.LOCALAPPDATA ?? (home ? join(home, ".cache") : undefined);
  // Relative roots are invalid (XDG) and would put the copy in the workspace.
  return root && platform.path.isAbsolute(root) ? join(root, "continue-mcp", "ripgrep") : null;
}

/** Puts a checked copy of `bytes` named `name` in `folder` (made private) and returns its path, or null. */
async function copyInto(
  folder: string,
  name: string,
  bytes: Uint8Array,
  digest: string,
): Promise<string | null> {
  // Not even our own folder is safe where others could rename it away and put theirs in its place.
  await checkAncestors(folder);
  await ensurePrivateDir(folder, { create: true });
  const target = join(folder, name);
  if (await isCopyOf(target, digest)) return target;
  // Whatever is there under that name (a copy cut short, not private) is replaced: the folder is ours.
  const temp = `${target}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeFile(temp, bytes, { createNew: true, mode: 0o700 });
    await Deno.rename(temp, target);
  } finally {
    await Deno.remove(temp).catch(() => {});
  }
  return await isCopyOf(target, digest) ? target : null;
}

/** Whether `path` is our private regular file (never followed if a link) holding the bytes of `digest`. */
async function isCopyOf(path: string, digest: string): Promise<boolean> {
  const file = await openPrivateFile(path).catch(() => null);
  if (!file) return false;
  try {
    const size = (await file.stat()).size;
    const bytes = new Uint8Array(size);
    let read = 0;
    while (read < size) {
      const count = await file.read(bytes.subarray(read));
      if (count === null) return false;
      read += count;
    }
    return await sha256Hex(bytes) === digest;
  } finally {
    file.close();
  }
}
