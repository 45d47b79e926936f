/**
 * The writing servers (edit, notes, sql) obey the shell sandbox's list of protected names (protected.ts): a
 * model must not plant `.git/hooks/pre-commit` or `fsmonitor` in `.git/config` through our own tools either.
 * A path is judged relative to every root it lies in (workspace roots, allowed folders, a notes repository),
 * both as named and where it really lands (symlinks followed), and a protected name that is itself a
 * symlink protects the place it leads to.
 * @module
 */
import { ToolError } from "../mcp/errors.ts";
import { platform, toSlashes } from "../platform/mod.ts";
import { realResolve } from "../workspace/resolve.ts";
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
  const { path: paths } = platform;
  const named = paths.resolve(path);
  // As named first: an odd name (`config::$DATA`) may not even resolve, and needs no resolving to refuse.
  for (const root of roots) {
    const reason = platform.isInside(named, root) ? await reasonUnder(root, named) : undefined;
    if (reason) return reason;
  }
  const real = options.followLast === false
    ? paths.join(await realResolve(paths.dirname(named)), paths.basename(named))
    : await realResolve(named);
  for (const root of roots) {
    if (real === named || !platform.isInside(real, root)) continue;
    const reason = await reasonUnder(root, real);
    if (reason) return `it leads to "${relativeParts(root, real).join("/")}", and ${reason}`;
  }
  for (const root of roots) {
    const reason = await reachedThroughLink(root, real);
    if (reason) return reason;
  }
  return undefined;
}

/** Why `absolute` (inside `root`) is protected: a protected name, or under a `.git` that is a file. */
async function reasonUnder(root: string, absolute: string): Promise<string | undefined> {
  const parts = relativeParts(root, absolute);
  // A `.git` file (a worktree's or submodule's pointer), at the root or in a nested checkout, is protected
  // whole: rewritten, it points git at hooks the writer chose.
  for (const [at, part] of parts.entries()) {
    if (part.toLowerCase() !== ".git" || !await isFile(platform.path.join(root, ...parts.slice(0, at + 1)))) {
      continue;
    }
    if (at === 0) return protectedReason(parts.join("/"), { gitIsFile: true });
    return `"${parts.slice(0, at + 1).join("/")}" is a git pointer file (git follows it)`;
  }
  return protectedReason(parts.join("/"));
}

/**
 * A protected name of `root` that is a symlink (`.vscode` → `editor/`) protects where it leads: a write
 * to `editor/tasks.json` changes what the editor reads as `.vscode/tasks.json`.
 */
async function reachedThroughLink(root: string, real: string): Promise<string | undefined> {
  const targets = await Promise.all(PROTECTED_NAMES.map(async (name) => {
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

/**
 * The parts of `absolute` below `root`, each as the file system will store it: Windows drops trailing dots
 * and spaces and reads `name:stream` as the file `name`, so `.git/config.` or `.git/config::$DATA` is
 * `.git/config`. Done on every OS: refusing such odd names elsewhere too costs nothing.
 */
function relativeParts(root: string, absolute: string): string[] {
  return toSlashes(platform.path.relative(root, absolute)).split("/")
    .map((part) => part.replace(/:.*$/s, "").replace(/[. ]+$/, ""))
    .filter((part) => part !== "");
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}
