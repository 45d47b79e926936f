/**
 * What the policy reads from a workspace's git config, at server start (it is protected: no job writes it):
 * the hosts of its remotes, for the network allow-list (`git fetch`/`push` to the repository's own remotes
 * should work sandboxed), and where its hooks are when `core.hooksPath` moves them into the working tree
 * (husky, `.githooks/`): those are protected like `.git/hooks`.
 * @module
 */
import { isAbsolute, join, resolve } from "node:path";

/** Hosts named by the remotes of the repository at `root` (none when it is not one, or unreadable). */
export async function remoteHosts(root: string): Promise<string[]> {
  return parseRemoteHosts(await readConfig(root));
}

/**
 * Where git looks for the hooks of the repository at `root` when `core.hooksPath` says so (the repository's
 * config first, then the user's global ones), resolved against `root`; with husky's `<dir>/_` the folder
 * whose files its hooks run too. Empty when unset.
 */
export async function hooksPaths(
  root: string,
  globalConfigs: readonly string[],
  home?: string,
): Promise<string[]> {
  let value = parseHooksPath(await readConfig(root));
  for (const file of globalConfigs) {
    if (value !== undefined) break;
    value = parseHooksPath(await Deno.readTextFile(file).catch(() => ""));
  }
  if (!value) return [];
  const path = resolve(root, home ? value.replace(/^~(?=\/)/, home) : value);
  return path.endsWith("/_") ? [path, path.slice(0, -2)] : [path];
}

/** The value of `core.hooksPath` in a git config's text, or undefined. */
export function parseHooksPath(text: string): string | undefined {
  let inCore = false;
  let value: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) {
      inCore = /^\[core\]/i.test(line);
      continue;
    }
    const match = /^hookspath\s*=\s*(.+)$/i.exec(line);
    if (inCore && match) value = match[1].trim().replace(/^"(.*)"$/, "$1");
  }
  return value;
}

async function readConfig(root: string): Promise<string> {
  const config = await configPath(root);
  return config ? await Deno.readTextFile(config).catch(() => "") : "";
}

/** The hosts of the `url`/`pushurl` entries of `[remote "…"]` sections in a git config's text. */
export function parseRemoteHosts(text: string): string[] {
  const hosts = new Set<string>();
  let inRemote = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) {
      inRemote = /^\[remote\s+"[^"]*"\s*\]/i.test(line);
      continue;
    }
    const match = /^(url|pushurl)\s*=\s*(.+)$/i.exec(line);
    if (!inRemote || !match) continue;
    const host = hostOf(match[2].trim().replace(/^"(.*)"$/, "$1"));
    if (host) hosts.add(host);
  }
  return [...hosts];
}

/** `https://h/x`, `ssh://u@h:22/x`, `git@h:x` (scp-like) → `h`; local paths → undefined. */
export function hostOf(url: string): string | undefined {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url);
  if (scheme) {
    if (/^file:/i.test(url)) return undefined;
    try {
      const host = new URL(url.replace(/^[a-z0-9+.-]+:\/\//i, "http://")).hostname;
      return host ? host.toLowerCase().replace(/^\[|\]$/g, "") : undefined;
    } catch {
      return undefined;
    }
  }
  // scp-like: [user@]host:path, where host has no slash before the colon.
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/\/)/.exec(url);
  return scp && !isAbsolute(url) ? scp[1].toLowerCase() : undefined;
}

/** The config file of the repository at `root`: `.git/config`, or through a `.git` pointer file. */
async function configPath(root: string): Promise<string | undefined> {
  const dotGit = join(root, ".git");
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(dotGit);
  } catch {
    return undefined;
  }
  if (info.isDirectory) return join(dotGit, "config");
  try {
    const pointer = /^gitdir:\s*(.+)$/m.exec(await Deno.readTextFile(dotGit))?.[1]?.trim();
    if (!pointer) return undefined;
    const gitDir = resolve(root, pointer);
    // A worktree's git folder names the shared one in `commondir`; the remotes are configured there.
    const common = await Deno.readTextFile(join(gitDir, "commondir")).then((text) => text.trim(), () => "");
    return join(common ? resolve(gitDir, common) : gitDir, "config");
  } catch {
    return undefined;
  }
}
