/**
 * "Did you mean": existing paths close to one that does not exist. The commonest agent mistake is a
 * slightly wrong path: a typo, a wrong extension, a wrong folder level, or the right name in another folder.
 * Only paths fs_list would show are named (visible.ts): a hint must not reveal a gitignored or hidden file.
 * @module
 */
import { editDistance } from "../../lib/text/distance.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { Ripgrep } from "../../lib/ripgrep/locate.ts";
import { listFiles } from "../../lib/ripgrep/files.ts";
import { ignoreScope } from "../../lib/ripgrep/ignore_rules.ts";
import { visibleUnder } from "./visible.ts";

/** Where to look. */
export interface SuggestOptions {
  /** Folder the workspace is rooted at: the same-name search runs there. */
  root: string;
  /** The workspace's folders (roots and allowed folders), for the ignore rules; default `root`. */
  tops?: readonly string[];
  /** ripgrep, which decides what is visible; without it nothing is suggested. */
  rg?: Ripgrep | null;
  max?: number;
  signal?: AbortSignal;
}

/** Close names checked for visibility; the closest visible ones are kept. */
const MAX_CLOSE = 10;

/** Up to `max` (default 3) real paths of existing files or folders that look like `missing`. */
export async function similarPaths(missing: string, options: SuggestOptions): Promise<string[]> {
  const max = options.max ?? 3;
  const { path } = platform;
  // Walk up to the deepest folder that exists; the first missing part is the one to correct.
  let parent = path.dirname(missing);
  let rest = [path.basename(missing)];
  while (!(await isFolder(parent)) && path.dirname(parent) !== parent) {
    rest = [path.basename(parent), ...rest];
    parent = path.dirname(parent);
  }
  if (!options.rg) return [];
  const close: string[] = [];
  for (const name of await closeNames(parent, rest[0])) {
    const candidate = [name, ...rest.slice(1)].join("/");
    if (await exists(path.join(parent, candidate))) close.push(candidate);
    if (close.length >= MAX_CLOSE) break;
  }
  const visible = close.length
    ? await visibleUnder(options.rg, parent, close, {
      tops: options.tops ?? [options.root],
      signal: options.signal,
    })
    : new Set();
  const found = close.filter((candidate) => visible.has(candidate)).slice(0, max).map((candidate) =>
    path.join(parent, candidate)
  );
  if (found.length >= max) return found;
  if (platform.isInside(missing, options.root)) {
    // ripgrep's listing of the root: ignored and hidden files are not in it.
    for (const hit of await sameNameAnywhere(options.rg, options.root, path.basename(missing), options)) {
      if (!found.includes(hit)) found.push(hit);
      if (found.length >= max) break;
    }
  }
  return found;
}

/** Names in `folder` close to `wanted`, closest first. */
async function closeNames(folder: string, wanted: string): Promise<string[]> {
  const scored: { name: string; score: number }[] = [];
  try {
    for await (const entry of Deno.readDir(folder)) {
      const score = closeness(wanted, entry.name);
      if (score !== null) scored.push({ name: entry.name, score });
      if (scored.length > 500) break;
    }
  } catch {
    return [];
  }
  return scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name)).map((s) => s.name);
}

/** A distance (lower is closer) when `name` plausibly is what `wanted` meant, else null. */
export function closeness(wanted: string, name: string): number | null {
  const a = wanted.toLowerCase();
  const b = name.toLowerCase();
  if (a === b) return 0;
  const stem = (s: string) => s.replace(/\.[^.]*$/, "");
  if (stem(a) !== "" && stem(a) === stem(b)) return 1;
  const distance = editDistance(a, b);
  const allowed = Math.max(1, Math.floor(Math.max(a.length, b.length) / 4));
  if (distance <= allowed) return 1 + distance;
  if (a.length >= 4 && (b.startsWith(a) || a.startsWith(b))) return 2 + Math.abs(a.length - b.length);
  return null;
}

async function sameNameAnywhere(
  rg: Ripgrep,
  root: string,
  name: string,
  options: SuggestOptions,
): Promise<string[]> {
  if (name === "" || /[*?[\]{}]/.test(name)) return [];
  const hits: string[] = [];
  const { run, paths } = listFiles(rg, {
    cwd: root,
    globs: [`**/${name}`],
    ...await ignoreScope(root, { tops: options.tops ?? [root], cwd: root }),
    signal: options.signal,
  });
  for await (const relative of paths) {
    hits.push(platform.path.join(root, relative));
    if (hits.length >= 20) break;
  }
  await run.exit;
  // Shallowest first: `src/a.ts` is a likelier meaning of `a.ts` than `vendor/x/y/a.ts`.
  return hits.sort((a, b) => a.split(/[/\\]/).length - b.split(/[/\\]/).length || a.localeCompare(b));
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
