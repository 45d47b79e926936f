/**
 * The git repositories a write could change the behaviour of, found the way git finds them: from each
 * folder's `.git` (a folder, or a pointer file `gitdir: …`), then that folder's `commondir`; and from their
 * config files, where hooks really are (`core.hooksPath`) and which other files are config too (`include.path`,
 * `includeIf.*.path`). git reads config and hooks from every one of them, wherever it lies.
 * @module
 */
import { platform } from "../platform/mod.ts";
import { realResolve } from "../workspace/resolve.ts";
import { lookUpward, repoLevel } from "../workspace/trusted_above.ts";
import { configValues, parseCommondir, parseGitConfig, parseGitPointer } from "./git_config.ts";
import { lstatOrNull, readSmall, statOrNull } from "./guard_paths.ts";
import { GIT_DIR_PROTECTED, GIT_HOOK_NAMES } from "./protected.ts";

/** A path as named, and as it really is (symlinks followed). */
export interface Place {
  path: string;
  real: string;
}

/** A folder git takes for a repository's own folder, and the file that names it. */
export interface GitFolder extends Place {
  /** The `.git` folder itself, the `.git` pointer file or the `commondir` file that leads git here. */
  via: string;
}

/** A folder `core.hooksPath` names. */
export interface HooksFolder extends Place {
  /** The work tree the setting is relative to: when the hooks folder holds it, only hook names in it count. */
  top: string;
  /** The config file that says so. */
  source: string;
}

/** What git obeys besides the names of protected.ts. */
export interface GitFacts {
  dirs: GitFolder[];
  hooks: HooksFolder[];
  /** Config files that a repository's config includes. */
  includes: (Place & { source: string })[];
  /** `.git` pointer files found. */
  pointers: string[];
}

/** git stops following includes at this depth too. */
const MAX_INCLUDE_DEPTH = 10;
/** Config files read for one write at most: a repository above the workspace must not make writes slow. */
const MAX_CONFIGS = 64;

/**
 * The git facts of the repositories whose `.git` sits directly in one of `folders` (absolute), added to
 * `facts` when given.
 */
export async function gitFacts(
  folders: Iterable<string>,
  facts: GitFacts = { dirs: [], hooks: [], includes: [], pointers: [] },
): Promise<GitFacts> {
  const seen = new Set<string>();
  // Each folder's lookups go out at once: every one is a trip through Deno's blocking thread pool.
  await Promise.all([...new Set(folders)].map((top) => repositoryFacts(top, facts, seen)));
  return facts;
}

/** Adds what the `.git` entry directly in `top` leads to, if there is one. */
async function repositoryFacts(top: string, facts: GitFacts, seen: Set<string>): Promise<void> {
  const dotGit = platform.path.join(top, ".git");
  const info = await lstatOrNull(dotGit);
  if (!info) return;
  const target = info.isSymlink ? await statOrNull(dotGit) : info;
  let dir = dotGit;
  if (target?.isFile) {
    facts.pointers.push(dotGit);
    const named = parseGitPointer(await readSmall(dotGit) ?? "");
    if (named === null) return;
    dir = platform.path.resolve(top, named);
  } else if (!target?.isDirectory) return;
  const commondirFile = platform.path.join(dir, "commondir");
  const [own, common] = await Promise.all([
    place(dir),
    readSmall(commondirFile).then((text) => text === null ? null : parseCommondir(text)),
  ]);
  const dirs: GitFolder[] = [{ ...own, via: dotGit }];
  if (common !== null) {
    dirs.push({ ...await place(platform.path.resolve(dir, common)), via: commondirFile });
  }
  facts.dirs.push(...dirs);
  await Promise.all(
    dirs.flatMap((found) =>
      ["config", "config.worktree"].map((name) =>
        readConfig(platform.path.join(found.path, name), { top, facts, seen, depth: 0 })
      )
    ),
  );
}

/** Records what one config file (and what it includes) says about hooks and more config. */
async function readConfig(
  file: string,
  context: { top: string; facts: GitFacts; seen: Set<string>; depth: number },
): Promise<void> {
  // Per work tree: a relative core.hooksPath means a folder of each work tree that uses the config.
  const key = `${context.top}\0${file}`;
  if (context.seen.has(key) || context.seen.size >= MAX_CONFIGS) return;
  context.seen.add(key);
  const text = await readSmall(file);
  if (text === null) return;
  const entries = parseGitConfig(text);
  for (const value of configValues(entries, "core", "hookspath")) {
    const path = expandPath(value, context.top);
    if (path !== null) context.facts.hooks.push({ ...await place(path), top: context.top, source: file });
  }
  const included = [
    ...configValues(entries, "include", "path"),
    ...configValues(entries, "includeif", "path"),
  ];
  for (const value of included) {
    // Relative to the including file's folder; every includeIf counts, whatever its condition.
    const path = expandPath(value, platform.path.dirname(file));
    if (path === null) continue;
    context.facts.includes.push({ ...await place(path), source: file });
    if (context.depth < MAX_INCLUDE_DEPTH) await readConfig(path, { ...context, depth: context.depth + 1 });
  }
}

/**
 * The nearest folder above `folder` that holds a `.git` entry, walking only as far as lookUpward trusts
 * (trusted_above.ts: not into a folder another user could have planted a `.git` in; git's safe.directory
 * refuses those repositories too): when a workspace is a subfolder of a repository, git run anywhere in it
 * obeys that repository, whose `core.hooksPath` may name a folder inside.
 */
export async function enclosingTop(folder: string): Promise<string | null> {
  const upward = await lookUpward(folder, [folder]).catch(() => null);
  const found = upward === null ? undefined : repoLevel(upward)?.folder;
  return found === undefined || found === folder ? null : found;
}

/** A config pathname as git expands it (`~/…` is the home folder), absolute; null when it cannot be told. */
function expandPath(value: string, base: string): string | null {
  if (value === "") return null;
  if (value === "~" || value.startsWith("~/")) {
    const home = homeFolder();
    return home === null ? null : platform.path.join(home, value.slice(2));
  }
  if (value.startsWith("~") || value.startsWith("%(prefix)/")) return null; // Another user's home; git's own prefix.
  return platform.path.resolve(base, value);
}

function homeFolder(): string | null {
  try {
    return Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? null;
  } catch {
    return null; // No permission to read the environment.
  }
}

async function place(path: string): Promise<Place> {
  return { path, real: await realResolve(path).catch(() => path) };
}

/**
 * The paths inside `root` (absolute) that git obeys beyond protected.ts's names, found from the root's own
 * `.git` and from the repository the root lies in, if any: the config, hooks and the rest of {@link GIT_DIR_PROTECTED} of each folder it leads to (a
 * `--separate-git-dir`, a worktree's folder, their `commondir`), the `core.hooksPath` folder (or just its hook
 * names when it is the work tree's top), included config files, and a `.git` pointer file itself. For the
 * shell sandbox: each should be read-only for a job, like a protected name.
 */
export async function gitProtectedPaths(root: string): Promise<string[]> {
  const above = await enclosingTop(root);
  const facts = await gitFacts(above === null ? [root] : [root, above]);
  const paths = new Set<string>(facts.pointers);
  for (const dir of facts.dirs) {
    for (const { name } of GIT_DIR_PROTECTED) paths.add(platform.path.join(dir.real, name));
  }
  for (const hooks of facts.hooks) {
    if (!platform.isInside(hooks.top, hooks.real)) paths.add(hooks.real);
    else for (const name of GIT_HOOK_NAMES) paths.add(platform.path.join(hooks.real, name));
  }
  for (const include of facts.includes) paths.add(include.real);
  return [...paths].filter((path) => platform.isInside(path, root));
}
