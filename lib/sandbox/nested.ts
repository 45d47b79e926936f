/**
 * Protected names below a writable folder's top, found cheaply: a bounded walk (a few levels, a capped number
 * of folders, never into `.git` or dependency folders) for nested repositories (`.git`, folder or pointer
 * file), `.gitmodules` and `.envrc`. Names deeper, or created by a job later, are not found: a repository a
 * job makes (`git init`, `git clone`) is the job's (said in docs/servers/shell.md).
 * @module
 */
import { join } from "node:path";

/** How deep below the folder's top the walk looks: `a/b/c/.git` is found, `a/b/c/d/.git` is not. */
export const NESTED_DEPTH = 3;
/** Folders read at most per walk: a huge tree costs a bounded time at start. */
export const NESTED_FOLDERS = 2000;

/** Folders never walked into: big, and a repository inside one is a dependency's. */
const SKIPPED = new Set([
  ".git",
  "node_modules",
  ".venv",
  "venv",
  "__pycache__",
  "target",
  "dist",
  "build",
  ".cache",
  ".next",
  ".tox",
  "vendor",
]);

/** What the walk found below `root` (absolute paths), and whether it stopped at the folder cap. */
export interface NestedFinds {
  /** Folders holding a `.git` folder. */
  repositories: string[];
  /** `.git` pointer files (submodules, worktrees) and other protected files (`.gitmodules`, `.envrc`). */
  files: string[];
  truncated: boolean;
}

/** Walks `root` breadth-first, at most {@link NESTED_DEPTH} levels and {@link NESTED_FOLDERS} folders. */
export async function findNested(
  root: string,
  options: { depth?: number; folders?: number } = {},
): Promise<NestedFinds> {
  const finds: NestedFinds = { repositories: [], files: [], truncated: false };
  const maxDepth = options.depth ?? NESTED_DEPTH;
  let budget = options.folders ?? NESTED_FOLDERS;
  let level: string[] = [root];
  for (let depth = 0; depth <= maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      if (budget-- <= 0) {
        finds.truncated = true;
        return finds;
      }
      let entries: Deno.DirEntry[];
      try {
        entries = await Array.fromAsync(Deno.readDir(folder));
      } catch {
        continue; // unreadable or gone: nothing to protect there that a job could reach either
      }
      for (const entry of entries) {
        const path = join(folder, entry.name);
        // The top's own names are the policy's (every protected name, existing or not).
        if (depth > 0) {
          if (entry.name === ".git" && entry.isDirectory) finds.repositories.push(folder);
          else if (entry.name === ".git" || entry.name === ".gitmodules" || entry.name === ".envrc") {
            if (entry.isFile) finds.files.push(path);
          }
        }
        // Symlinks are not followed: what they point at is protected where it really lies, if writable.
        if (entry.isDirectory && !SKIPPED.has(entry.name) && depth < maxDepth) next.push(path);
      }
    }
    level = next;
  }
  return finds;
}
