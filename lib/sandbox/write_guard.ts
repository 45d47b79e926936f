/**
 * The writing servers (edit, notes, sql) obey the shell sandbox's list of protected names (protected.ts): a
 * model must not plant `.git/hooks/pre-commit` or `fsmonitor` in `.git/config` through our own tools either.
 * A path is judged relative to every root it lies in (workspace roots, allowed folders, a notes repository),
 * both as named and where it really lands (symlinks followed), and a protected name that is itself a
 * symlink protects the place it leads to. git's rules are judged on folders (git_guard.ts: `.git` entries,
 * repository folders found through pointers, `commondir` or their shape, `core.hooksPath`), and a file with
 * several hard links by what its other names are (link_guard.ts).
 * @module
 */
import { ToolError } from "../mcp/errors.ts";
import { platform } from "../platform/mod.ts";
import { realResolve } from "../workspace/resolve.ts";
import { enclosingTop, type GitFacts, gitFacts } from "./git_dirs.ts";
import { gitReason } from "./git_guard.ts";
import { relativeParts, shown } from "./guard_paths.ts";
import { linkedProtected } from "./link_guard.ts";
import { PROTECTED_NAMES, protectedReason } from "./protected.ts";

/** Who is refused, and against which folders protected names are judged. */
export interface GuardRules {
  /** Absolute real folders: workspace roots and allowed folders (or a notes repository root). */
  roots: readonly string[];
  /** The failed action and the path as shown, e.g. `Cannot write ".git/config"`. */
  action: string;
}

/** How a path is followed. */
export interface GuardOptions {
  /** Whether a symlink at `path` itself is followed (a write) or is what changes (a delete). Default true. */
  followLast?: boolean;
}

/**
 * Throws `permission_denied` when writing, creating or deleting `path` (absolute, as named: symlinks are
 * followed here) would change a protected name of one of `rules.roots`.
 */
export async function refuseProtectedWrite(
  path: string,
  rules: GuardRules,
  options: GuardOptions = {},
): Promise<void> {
  const reason = await protectedWriteReason(path, rules.roots, options);
  if (reason === undefined) return;
  throw new ToolError(
    "permission_denied",
    `${rules.action}: ${reason}; the user can change it outside the agent`,
  );
}

/** Why `path` (absolute) may not be written, or undefined when it may. */
export async function protectedWriteReason(
  path: string,
  roots: readonly string[],
  options: GuardOptions = {},
): Promise<string | undefined> {
  const named = platform.path.resolve(path);
  // As named first: an odd name (`config::$DATA`) may not even resolve, and needs no resolving to refuse.
  let real: string | undefined;
  let failure: unknown;
  try {
    real = await realOf(named, options);
  } catch (error) {
    failure = error;
  }
  const folders = foldersOnPath(roots, real === undefined ? [named] : [named, real]);
  const facts: GitFacts = { dirs: [], hooks: [], includes: [], pointers: [] };
  await Promise.all([
    gitFacts([...roots, ...folders], facts),
    ...roots.map(async (root) => {
      const above = await enclosingTop(root);
      if (above !== null) await gitFacts([above], facts);
    }),
  ]);
  for (const root of roots) {
    const reason = platform.isInside(named, root) ? await reasonUnder(root, named, facts) : undefined;
    if (reason) return reason;
  }
  if (real === undefined) throw failure;
  for (const root of roots) {
    if (real === named || !platform.isInside(real, root)) continue;
    const reason = await reasonUnder(root, real, facts);
    if (reason) return `it leads to "${relativeParts(root, real).join("/")}", and ${reason}`;
  }
  for (const root of roots) {
    const reason = await reachedThroughLink(root, real);
    if (reason) return reason;
  }
  // Deleting one name of a file leaves the others as they were.
  if (options.followLast === false) return undefined;
  const linked = await linkedProtected(real, { roots, folders, facts });
  if (!linked || "reason" in linked) return linked?.reason;
  const root = roots.find((root) => platform.isInside(linked.path, root));
  const reason = root === undefined ? undefined : await reasonUnder(root, linked.path, facts);
  return `it is another name (a hard link) of "${root ? shown(root, linked.path) : linked.path}", and ${
    reason ?? "that file is protected"
  }`;
}

/** Where `named` really lands: symlinks followed, the last one too unless `followLast` is false. */
async function realOf(named: string, options: GuardOptions): Promise<string> {
  const { path } = platform;
  if (options.followLast !== false) return await realResolve(named);
  return path.join(await realResolve(path.dirname(named)), path.basename(named));
}

/** Why `absolute` (inside `root`) is protected: a protected name, or a git rule (git_guard.ts). */
async function reasonUnder(root: string, absolute: string, facts: GitFacts): Promise<string | undefined> {
  const parts = relativeParts(root, absolute);
  return protectedReason(parts.join("/")) ?? await gitReason(root, absolute, facts);
}

/** Every folder from a root down to each path's folder, for the paths inside some root. */
function foldersOnPath(roots: readonly string[], absolutes: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const absolute of absolutes) {
    for (const root of roots) {
      if (!platform.isInside(absolute, root)) continue;
      let folder = root;
      for (const part of relativeParts(root, platform.path.dirname(absolute))) {
        folder = platform.path.join(folder, part);
        folders.add(folder);
      }
    }
  }
  return [...folders];
}

/**
 * A protected name of `root` that is a symlink (`.vscode` → `editor/`) protects where it leads: a write
 * to `editor/tasks.json` changes what the editor reads as `.vscode/tasks.json`.
 */
async function reachedThroughLink(root: string, real: string): Promise<string | undefined> {
  // Only names whose first part exists can be links: one listing of the root spares a lookup per name.
  const present = await rootNames(root);
  const names = PROTECTED_NAMES.filter((name) => present?.has(name.path.split("/")[0]) ?? true);
  const targets = await Promise.all(names.map(async (name) => {
    const named = platform.path.join(root, ...name.path.split("/"));
    const target = await Deno.realPath(named).then(platform.normalizeReal, () => named);
    return target === named ? undefined : { name: name.path, target };
  }));
  for (const found of targets) {
    if (!found || !platform.isInside(real, found.target)) continue;
    return `it is reached through "${found.name}", and ${protectedReason(found.name)}`;
  }
  return undefined;
}

/** The entry names of `root`, lower case (names compare so), or null when it cannot be listed. */
async function rootNames(root: string): Promise<Set<string> | null> {
  try {
    const names = new Set<string>();
    for await (const entry of Deno.readDir(root)) names.add(entry.name.toLowerCase());
    return names;
  } catch {
    return null;
  }
}
