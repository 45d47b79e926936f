/**
 * The write guard's git rules, judged on folders rather than names, because git finds a repository's config
 * and hooks by following files (a `.git` pointer, a `commondir`, `core.hooksPath`), and takes any folder with
 * `HEAD`, `objects/` and `refs/` for a repository (a bare one, or the target of a pointer):
 * - no `.git` entry is created, file or folder: a new one would make git obey a folder the writer chose;
 * - an existing `.git` pointer file is never rewritten;
 * - in a folder git takes for a repository's own (found through `.git` entries and `commondir`, or by its
 *   shape), `config`, `hooks/`, `commondir` and the rest of GIT_DIR_PROTECTED are refused;
 * - no write completes that shape in another folder (the last of `HEAD`, `objects/`, `refs/`, `commondir`);
 * - the folder `core.hooksPath` names, and config files the config includes, are refused.
 * An existing `.git` folder's ordinary contents (objects, refs, index, HEAD) stay writable.
 * @module
 */
import { platform } from "../platform/mod.ts";
import type { GitFacts } from "./git_dirs.ts";
import { insideFolded, lstatOrNull, relativeParts, shown } from "./guard_paths.ts";
import {
  GIT_DIR_PROTECTED,
  GIT_DIR_SHAPE,
  GIT_HOOK_NAMES,
  gitDirChildReason,
  isGitDirShape,
} from "./protected.ts";

const SHAPE = new Set(GIT_DIR_SHAPE.map((name) => name.toLowerCase()));
const CHILDREN = new Set(GIT_DIR_PROTECTED.map(({ name }) => name));

/** Why writing `absolute` (inside `root`) would change what git obeys, or undefined. */
export async function gitReason(
  root: string,
  absolute: string,
  facts: GitFacts,
): Promise<string | undefined> {
  const parts = relativeParts(root, absolute);
  return await dotGitReason(root, parts) ??
    knownDirReason(root, absolute, facts) ??
    await shapeReason(root, parts) ??
    hooksReason(root, absolute, facts);
}

/** A `.git` on the path that does not exist yet (created by this write), or that is a pointer file. */
async function dotGitReason(root: string, parts: string[]): Promise<string | undefined> {
  for (const [at, part] of parts.entries()) {
    if (part.toLowerCase() !== ".git") continue;
    const named = parts.slice(0, at + 1).join("/");
    const info = await lstatOrNull(platform.path.join(root, ...parts.slice(0, at + 1)));
    if (!info) return `creating "${named}" is refused (git would take it for a repository)`;
    // A worktree's or submodule's pointer, rewritten, points git at config and hooks the writer chose.
    if (info.isFile) return `"${named}" is a git pointer file (git follows it)`;
  }
  return undefined;
}

/** Inside a folder a `.git` entry or a `commondir` leads git to. */
function knownDirReason(root: string, absolute: string, facts: GitFacts): string | undefined {
  for (const dir of facts.dirs) {
    for (const folder of [dir.path, dir.real]) {
      if (!insideFolded(absolute, folder)) continue;
      const reason = gitDirChildReason(relativeParts(folder, absolute).join("/"));
      if (reason) {
        return `"${shown(root, folder)}" is a git repository folder ("${
          shown(root, dir.via)
        }" leads git to it): ${reason}`;
      }
    }
  }
  return undefined;
}

/**
 * A folder on the path that git takes for a repository by its shape (a bare repository, a separate git
 * folder), when the write is inside its config or hooks, or would give it the shape.
 */
async function shapeReason(root: string, parts: string[]): Promise<string | undefined> {
  for (let at = 0; at < parts.length; at++) {
    const below = parts[at].toLowerCase();
    if (!CHILDREN.has(below) && !SHAPE.has(below)) continue;
    // A `.git` folder's own names are protected by name, and its HEAD, objects and refs are git's to write.
    if (at > 0 && parts[at - 1].toLowerCase() === ".git") continue;
    const folder = platform.path.join(root, ...parts.slice(0, at));
    const present = await shapeNames(folder);
    const label = `"${parts.slice(0, at).join("/") || "."}"`;
    if (isGitDirShape(present)) {
      const reason = gitDirChildReason(below);
      if (reason) return `${label} is a git repository folder (HEAD, objects/, refs/): ${reason}`;
      continue;
    }
    if (SHAPE.has(below) && isGitDirShape(new Set([...present, below]))) {
      return `it would make ${label} a git repository folder (HEAD, objects/, refs/), whose config and hooks git obeys`;
    }
  }
  return undefined;
}

/** Which of HEAD, objects, refs and commondir `folder` holds, lower case. */
async function shapeNames(folder: string): Promise<Set<string>> {
  const found = await Promise.all(
    GIT_DIR_SHAPE.map(async (name) => (await lstatOrNull(platform.path.join(folder, name))) ? name : null),
  );
  return new Set(found.filter((name) => name !== null).map((name) => name!.toLowerCase()));
}

/** Inside the `core.hooksPath` folder, or a config file the repository's config includes. */
function hooksReason(root: string, absolute: string, facts: GitFacts): string | undefined {
  for (const hooks of facts.hooks) {
    const source = `core.hooksPath in "${shown(root, hooks.source)}"`;
    for (const folder of [hooks.path, hooks.real]) {
      if (!insideFolded(absolute, folder)) continue;
      // A hooks folder holding the work tree (`core.hooksPath = .`): only hook names in it run.
      if (insideFolded(hooks.top, folder)) {
        const name = platform.path.basename(absolute).toLowerCase();
        if (
          platform.path.dirname(absolute).toLowerCase() !== folder.toLowerCase() || !GIT_HOOK_NAMES.has(name)
        ) {
          continue;
        }
        return `"${shown(root, absolute)}" is a hook in git's hooks folder (${source})`;
      }
      return `"${shown(root, folder)}" is git's hooks folder (${source})`;
    }
  }
  for (const include of facts.includes) {
    if (![include.path, include.real].some((path) => insideFolded(absolute, path))) continue;
    return `"${shown(root, include.path)}" is included by git's config ("${shown(root, include.source)}"), ` +
      "and git runs commands its config names";
  }
  return undefined;
}
