/**
 * How far a lookup may walk up from the workspace: the notes server's repository root, whether a search lies
 * in a git repository, whose ignore files apply to it. Folders inside the workspace are the user's choice and
 * always looked at. Above it the walk stops at (looks neither at nor above) the first folder another user
 * could have written into: one that belongs to someone other than us or root, one others may write in (as
 * /tmp, sticky or not: everyone adds entries there), one a group that is not ours alone may write in
 * (private_group.ts), or one holding a `.git`, `.continue-notes` or
 * ignore file of another user's (git's `safe.directory` rule refuses repositories owned by others too).
 * Otherwise a `.git` planted in /tmp makes each workspace below a repository whose notes folder that user
 * reads and writes, and a planted `.ignore` of `*` hides every file from search. Windows shows no owners:
 * there every folder is looked at, as before (platform: `othersMayWrite`).
 * @module
 */
import { ownUid } from "../fs/private_dir.ts";
import { platform } from "../platform/mod.ts";
import { privateGroups } from "./private_group.ts";

/** The entries a lookup acts on: a folder above the workspace holding one of another user's is not used. */
export const MARKERS: readonly string[] = [".git", ".continue-notes", ".gitignore", ".ignore", ".rgignore"];

/** One folder a lookup may look in, and which of {@link MARKERS} it holds (inside the workspace: `.git`). */
export interface Level {
  folder: string;
  has: ReadonlySet<string>;
}

/** The folders from a walked folder up, as far as a lookup may go. */
export interface Upward {
  /** The walked folder, then each folder above it a lookup may look in, nearest first. */
  levels: Level[];
  /** Whether they reach the filesystem root: no folder above was refused. */
  whole: boolean;
}

/** An lstat that failed for another reason than "nothing there" (no permission): nothing can be told. */
const UNKNOWN = Symbol("unknown");

/**
 * The levels from `folder` (absolute, real) up. `tops` are the workspace's folders (roots and allowed
 * folders): up to the outermost one holding `folder`, or `folder` itself when none does, every folder is a
 * level; above it only those the rule of this module trusts, up to the first it refuses.
 */
export async function lookUpward(folder: string, tops: readonly string[]): Promise<Upward> {
  const start = platform.path.resolve(folder);
  const chain: string[] = [];
  for (let dir = start;; dir = platform.path.dirname(dir)) {
    chain.push(dir);
    if (platform.path.dirname(dir) === dir) break;
  }
  const holding = tops.filter((top) => platform.isInside(start, top));
  const outermost = holding.sort((a, b) => a.length - b.length)[0] ?? start;
  const inside = chain.findIndex((dir) => platform.isInside(outermost, dir)) + 1;
  // Every lookup goes out at once (each is a trip through Deno's blocking thread pool); what lies above
  // the first refused folder is never used.
  const folders = chain.map((dir, i) => i < inside ? null : Deno.stat(dir).catch(() => null));
  // Inside the workspace only `.git` is asked for: nothing else there decides anything.
  const names = (i: number) => i < inside ? [".git"] : MARKERS;
  const entries = chain.map((dir, i) =>
    Promise.all(names(i).map((name) => lstatEntry(platform.path.join(dir, name))))
  );
  const levels: Level[] = [];
  let uid: Promise<number | null> | undefined;
  for (const [i, dir] of chain.entries()) {
    const found = await entries[i];
    if (i >= inside) {
      const info = await folders[i];
      // Asked only when an owner is shown (not on Windows): without --allow-sys it costs a probe file.
      uid ??= info?.uid === null ? Promise.resolve(null) : ownUid().catch(() => null);
      const own = await uid;
      const refused = !info || platform.othersMayWrite(info, own, await privateGroups(own)) ||
        found.some((entry) => entry === UNKNOWN || (entry !== null && platform.foreignOwned(entry, own)));
      if (refused) return { levels, whole: false };
    }
    levels.push({
      folder: dir,
      has: new Set(names(i).filter((_, j) => found[j] !== null && found[j] !== UNKNOWN)),
    });
  }
  return { levels, whole: true };
}

/** The nearest level holding a `.git` (a folder, or a file in worktrees and submodules), or undefined. */
export function repoLevel(upward: Upward): Level | undefined {
  return upward.levels.find((level) => level.has.has(".git"));
}

async function lstatEntry(path: string): Promise<Deno.FileInfo | null | typeof UNKNOWN> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory
      ? null
      : UNKNOWN;
  }
}
