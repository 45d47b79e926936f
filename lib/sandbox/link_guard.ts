/**
 * A file with several names (hard links) is written in place (lib/fs/file_write.ts), so the name a write
 * gives says nothing about the other names it changes: `cfglink`, a second name of `.git/config`, would put
 * `fsmonitor` into git's config. Before such a write, the file's identity (device + inode) is compared with
 * the protected files that exist where git and the other programs look: each root's protected names, the
 * folders git takes for a repository (their config, hooks, commondir, modules, worktrees), the
 * `core.hooksPath` folder, included config files, `.git` pointer files, and the protected names of every
 * folder on the written path. A file that reads as a `.git` pointer (`gitdir: …`) is refused too: git follows
 * any such file named `.git`, wherever that name is. Ordinary hard-linked files stay writable.
 * @module
 */
import { platform } from "../platform/mod.ts";
import type { GitFacts } from "./git_dirs.ts";
import { lstatOrNull, readSmall } from "./guard_paths.ts";
import { GIT_DIR_PROTECTED, GIT_HOOK_NAMES, PROTECTED_NAMES } from "./protected.ts";

/** Beyond this many protected files the check gives up and refuses: a link it could not check is refused. */
const MAX_FILES = 20_000;
/** Inside a repository folder's modules/ and worktrees/: git's data, never code or config. */
const GIT_DATA = new Set(["objects", "refs", "logs", "lfs", "rr-cache", "packed-refs", "index"]);

/** Where protected files are looked for. */
export interface LinkScope {
  roots: readonly string[];
  /** Folders on the written path (each root's and their own protected names apply there). */
  folders: readonly string[];
  facts: GitFacts;
}

/**
 * The protected file (absolute) that `real` (a file's real path) is another name of, or a reason to refuse
 * it, or undefined when it has one name or none of its names is protected.
 */
export async function linkedProtected(
  real: string,
  scope: LinkScope,
): Promise<{ path: string } | { reason: string } | undefined> {
  const info = await lstatOrNull(real);
  if (!info?.isFile || info.nlink === null || info.nlink <= 1) return undefined;
  if (info.dev === null || info.ino === null) {
    return {
      reason: `it has ${info.nlink} names (hard links), and this system cannot tell whether one is protected`,
    };
  }
  if ((await readSmall(real, 8))?.startsWith("gitdir: ")) {
    return {
      reason:
        `it has ${info.nlink} names (hard links) and reads as a git pointer file (git follows a ".git" file)`,
    };
  }
  const found = await protectedFiles(
    scope,
    (path, other) => path !== real && other.dev === info.dev && other.ino === info.ino,
  );
  if (found === null) {
    return {
      reason: `it has ${info.nlink} names (hard links), and the protected files could not all be checked ` +
        "(too many, or a folder that cannot be listed)",
    };
  }
  return found === undefined ? undefined : { path: found };
}

/** What a walk does with each protected file: true stops it there. */
type Match = (path: string, info: Deno.FileInfo) => boolean;

/**
 * The first protected file in the scope that `match` accepts, undefined when none does, or null when the
 * walk passed {@link MAX_FILES} or met a folder it cannot list.
 */
async function protectedFiles(scope: LinkScope, match: Match): Promise<string | undefined | null> {
  const walk = { match, seen: new Set<string>(), found: undefined as string | undefined };
  const starts: [string, "root" | "any"][] = [
    ...scope.roots.map((root) => [root, "root"] as [string, "root"]),
    ...scope.folders.map((folder) => [folder, "any"] as [string, "any"]),
  ];
  const places: [string, boolean][] = [];
  for (const [folder, where] of starts) {
    for (const name of PROTECTED_NAMES) {
      if (where === "any" && name.depth !== "any") continue;
      places.push([platform.path.join(folder, ...name.path.split("/")), name.path.startsWith(".git/")]);
    }
  }
  for (const dir of scope.facts.dirs) {
    for (const { name } of GIT_DIR_PROTECTED) {
      places.push([platform.path.join(dir.real, name), name !== "hooks"]);
    }
  }
  for (const hooks of scope.facts.hooks) {
    const top = platform.isInside(hooks.top, hooks.real);
    if (!top) places.push([hooks.real, false]);
    else for (const name of GIT_HOOK_NAMES) places.push([platform.path.join(hooks.real, name), false]);
  }
  for (const path of [...scope.facts.includes.map((include) => include.real), ...scope.facts.pointers]) {
    places.push([path, false]);
  }
  for (const [path, skipData] of places) {
    if (!await collect(path, walk, skipData)) return null;
    if (walk.found !== undefined) return walk.found;
  }
  return undefined;
}

/**
 * Visits the file at `path`, or every file under the folder, until one matches; false at the limit or a
 * folder it cannot list.
 */
async function collect(
  path: string,
  walk: { match: Match; seen: Set<string>; found: string | undefined },
  skipData: boolean,
): Promise<boolean> {
  if (walk.seen.has(path)) return true;
  if (walk.seen.size >= MAX_FILES) return false;
  walk.seen.add(path);
  const info = await lstatOrNull(path);
  if (!info) return true;
  if (info.isFile && walk.match(path, info)) walk.found = path;
  if (!info.isDirectory) return true;
  try {
    for await (const entry of Deno.readDir(path)) {
      if (skipData && GIT_DATA.has(entry.name.toLowerCase())) continue;
      if (!await collect(platform.path.join(path, entry.name), walk, skipData)) return false;
      if (walk.found !== undefined) return true;
    }
  } catch {
    return false;
  }
  return true;
}
