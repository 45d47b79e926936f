/**
 * Which paths under a folder fs_list would show: what ripgrep lists there (.gitignore, .ignore, .rgignore and
 * the hidden rule, as lib/ripgrep/ignore_rules.ts decides for fs_list and search-mcp), plus the entries
 * fs_list adds by reading the folder itself (symlinks, empty and collapsed folders, special files; never
 * hidden ones). A "did you mean" names nothing else, so it cannot reveal a gitignored `.env`.
 * @module
 */
import { platform, toSlashes } from "../../lib/platform/mod.ts";
import type { Ripgrep } from "../../lib/ripgrep/locate.ts";
import { listFiles } from "../../lib/ripgrep/files.ts";
import { ignoreScope } from "../../lib/ripgrep/ignore_rules.ts";

/** Generated folders fs_list shows as one line with their entry count, never descended. */
export const COLLAPSED = ["node_modules", ".git", ".hg", ".svn", "__pycache__", ".venv"];

/** Most folder entries ruled out by name for ripgrep (longer argv only slows it down). */
const MAX_PRUNED = 200;

/** Where the candidates are checked: the workspace's folders (roots and allowed folders), as fs_list's. */
export interface VisibleOptions {
  tops: readonly string[];
  signal?: AbortSignal;
}

/** Of `candidates` (existing paths relative to `folder`, `/`-separated), those fs_list of `folder` shows. */
export async function visibleUnder(
  rg: Ripgrep,
  folder: string,
  candidates: readonly string[],
  options: VisibleOptions,
): Promise<Set<string>> {
  const shown = new Set<string>();
  const open = candidates.filter((candidate) => !candidate.split("/").some(isHidden));
  for (const candidate of open) {
    if (!candidate.includes("/") && await shownByReading(platform.path.join(folder, candidate))) {
      shown.add(candidate);
    }
  }
  const pending = open.filter((candidate) => !shown.has(candidate));
  if (!pending.length) return shown;
  const tops = new Set(pending.map((candidate) => candidate.split("/")[0]));
  const { run, paths } = listFiles(rg, {
    cwd: folder,
    // Positive globs are matched on ripgrep's ignore-aware walk (glob_filter.ts), never handed to it.
    globs: [
      ...pending.flatMap((c) => [`/${escapeGlob(c)}`, `/${escapeGlob(c)}/**`]),
      ...await pruned(folder, tops),
    ],
    ...await ignoreScope(folder, { tops: options.tops, cwd: folder }),
    signal: options.signal,
  });
  for await (const listed of paths) {
    const path = toSlashes(listed);
    for (const candidate of pending) {
      if (path === candidate || path.startsWith(`${candidate}/`)) shown.add(candidate);
    }
    if (pending.every((candidate) => shown.has(candidate))) break;
  }
  await run.exit;
  return shown;
}

/** Whether fs_list shows the entry at `path` by reading its folder, whatever ripgrep lists (see list.ts). */
async function shownByReading(path: string): Promise<boolean> {
  try {
    const info = await Deno.lstat(path);
    if (info.isSymlink || (!info.isFile && !info.isDirectory)) return true;
    if (!info.isDirectory) return false;
    if (COLLAPSED.includes(platform.path.basename(path))) return true;
    for await (const _ of Deno.readDir(path)) return false;
    return true; // An empty folder.
  } catch {
    return false;
  }
}

/** `!/name` for the entries of `folder` no candidate lies under, so ripgrep skips them (plain names only). */
async function pruned(folder: string, tops: ReadonlySet<string>): Promise<string[]> {
  const globs: string[] = [];
  try {
    for await (const entry of Deno.readDir(folder)) {
      if (tops.has(entry.name) || isHidden(entry.name) || /[^\w.@+=,-]/.test(entry.name)) continue;
      globs.push(`!/${entry.name}`);
      if (globs.length >= MAX_PRUNED) return [];
    }
  } catch {
    return [];
  }
  return globs;
}

function isHidden(name: string): boolean {
  return name.startsWith(".");
}

function escapeGlob(path: string): string {
  return path.replace(/[\\*?[\]{}!]/g, "\\$&");
}
