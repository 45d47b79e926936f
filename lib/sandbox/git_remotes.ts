/**
 * The hosts of a workspace's git remotes, so that `git fetch` and `git push` to the repository's own remotes
 * work through the sandbox's proxy with no configuration. Read once at server start, before any job runs:
 * `.git/config` is write-protected for jobs (protected.ts), and nothing read later could come from a job.
 * @module
 */
import { dirname, isAbsolute, join, resolve } from "node:path";
import { normalizeHost } from "./proxy_domains.ts";

/** A larger config is not a hand-written one: read no further. */
const MAX_CONFIG_BYTES = 1024 * 1024;
/** More hosts than this are not "the repository's own remotes". */
const MAX_HOSTS = 32;

/**
 * The hosts named by the remotes (`url`, `pushurl`, after `insteadOf` rewrites) of the repository holding
 * `workspaceRoot` (it or the nearest parent with `.git`), lower case, https and ssh forms alike; empty when
 * there is no repository or its config cannot be read.
 */
export async function gitRemoteHosts(workspaceRoot: string): Promise<string[]> {
  const config = await findGitConfig(resolve(workspaceRoot));
  if (!config) return [];
  let text: string;
  try {
    const bytes = await Deno.readFile(config);
    text = new TextDecoder().decode(bytes.subarray(0, MAX_CONFIG_BYTES));
  } catch {
    return [];
  }
  return remoteHostsOf(text);
}

/** The hosts named by the remotes of one git config text (see {@link gitRemoteHosts}). */
export function remoteHostsOf(configText: string): string[] {
  const urls: string[] = [];
  const rewrites: { base: string; prefix: string; pushOnly: boolean }[] = [];
  let section: { name: string; sub: string } | null = null;
  for (const rawLine of configText.split(/\r?\n/)) {
    const line = rawLine.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header) {
      section = { name: header[1].toLowerCase(), sub: (header[2] ?? "").replace(/\\(.)/g, "$1") };
      continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!entry || !section) continue;
    const key = entry[1].toLowerCase();
    const value = unquote(entry[2]);
    if (section.name === "remote" && (key === "url" || key === "pushurl")) urls.push(value);
    if (section.name === "url" && (key === "insteadof" || key === "pushinsteadof")) {
      rewrites.push({ base: section.sub, prefix: value, pushOnly: key === "pushinsteadof" });
    }
  }
  const hosts = new Set<string>();
  for (const url of urls) {
    // Git uses the longest matching prefix; a pushInsteadOf rewrite leaves the original URL for fetches.
    const candidates = [url];
    for (const pushOnly of [false, true]) {
      const rewrite = rewrites.filter((r) => r.pushOnly === pushOnly && r.prefix && url.startsWith(r.prefix))
        .sort((a, b) => b.prefix.length - a.prefix.length)[0];
      if (!rewrite) continue;
      if (!pushOnly) candidates.shift();
      candidates.push(rewrite.base + url.slice(rewrite.prefix.length));
    }
    for (const candidate of candidates) {
      const host = hostOfGitUrl(candidate);
      if (host && hosts.size < MAX_HOSTS) hosts.add(host);
    }
  }
  return [...hosts];
}

/** The host of a git URL: `https://host/…`, `ssh://user@host:22/…`, `git://…`, or scp-like `user@host:path`. */
export function hostOfGitUrl(url: string): string | null {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i.exec(url);
  if (scheme) {
    if (scheme[1].toLowerCase() === "file") return null;
    const authority = scheme[2].slice(scheme[2].lastIndexOf("@") + 1);
    const host = authority.startsWith("[") ? authority.slice(0, authority.indexOf("]") + 1) : authority;
    return normalizeHost(host.replace(/:\d*$/, ""));
  }
  // scp-like: no slash before the first colon (git's own rule), and not a Windows drive letter.
  const colon = url.indexOf(":");
  if (colon <= 0 || url.slice(0, colon).includes("/") || /^[A-Za-z]:[\\/]/.test(url)) return null;
  const authority = url.slice(0, colon);
  return normalizeHost(authority.slice(authority.lastIndexOf("@") + 1));
}

function unquote(raw: string): string {
  let value = raw.replace(/\s[#;].*$/, "").trim();
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
  return value.replace(/\\(.)/g, "$1");
}

/** `.git/config` of the nearest repository at or above `dir`, following a worktree's or submodule's `.git` file. */
async function findGitConfig(dir: string): Promise<string | null> {
  for (let current = dir;; current = dirname(current)) {
    const dotGit = join(current, ".git");
    const info = await Deno.stat(dotGit).catch(() => null);
    if (info?.isDirectory) return join(dotGit, "config");
    if (info?.isFile) return await configOfGitFile(dotGit, current);
    if (dirname(current) === current) return null;
  }
}

async function configOfGitFile(dotGitFile: string, worktree: string): Promise<string | null> {
  const text = await Deno.readTextFile(dotGitFile).catch(() => "");
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!match) return null;
  const gitDir = isAbsolute(match[1]) ? match[1] : join(worktree, match[1]);
  // A linked worktree keeps its config in the main repository's folder, named by `commondir`.
  const common = (await Deno.readTextFile(join(gitDir, "commondir")).catch(() => "")).trim();
  const base = common ? (isAbsolute(common) ? common : join(gitDir, common)) : gitDir;
  return join(base, "config");
}
