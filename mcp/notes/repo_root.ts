/** Where a workspace's notes live: `<repo-root>/.continue-notes/`, never in the home folder. */
import { ToolError } from "../../lib/mcp/errors.ts";
import { platform, toSlashes } from "../../lib/platform/mod.ts";
import { lookUpward } from "../../lib/workspace/trusted_above.ts";

/** The folder, under the repo root, that holds one markdown file per note. */
export const NOTES_DIR = ".continue-notes";

/** Options of {@link findRepoRoot}. */
export interface RepoRootOptions {
  /** Home folders (`HOME`, `USERPROFILE`): never a repo root, and the walk stops below them. */
  homes?: readonly string[];
}

/** The entries of one folder, by name, as `Deno.readDir` gives them (symlinks not followed). */
export interface FolderListing {
  folder: string;
  entries: ReadonlyMap<string, Deno.DirEntry>;
}

/** The listing of `folder`, or undefined when it cannot be read. */
export async function listFolder(folder: string): Promise<FolderListing | undefined> {
  const entries = new Map<string, Deno.DirEntry>();
  try {
    for await (const entry of Deno.readDir(folder)) entries.set(entry.name, entry);
  } catch {
    return undefined;
  }
  return { folder, entries };
}

/**
 * The nearest folder at or above `start` that holds `.git` (a folder, or a file in worktrees and
 * submodules); `start` itself when there is none. The walk ends at the filesystem root, never reaches a
 * home folder (a dotfiles repo in `~` must not swallow every project's notes), and trusts nothing above
 * `start` another user could have planted (lib/workspace/trusted_above.ts: a `.git` in /tmp would make its
 * `.continue-notes/` theirs to read and fill). Throws `unavailable` when the answer would be a home folder
 * or the filesystem root.
 */
export async function findRepoRoot(start: string, options: RepoRootOptions = {}): Promise<string> {
  const isHome = homeTest(options);
  const origin = platform.path.resolve(start);
  for (const level of (await lookUpward(origin, [origin])).levels) {
    if (isHome(level.folder)) break;
    if (level.has.has(".git")) return level.folder;
  }
  if (isHome(origin) || platform.path.dirname(origin) === origin) {
    throw new ToolError(
      "unavailable",
      `Cannot keep notes for "${toSlashes(origin)}": it is ${
        isHome(origin) ? "the home folder" : "the filesystem root"
      }, not a project; open a project folder or set MCP_WORKSPACE to one`,
    );
  }
  return origin;
}

/**
 * The root {@link findRepoRoot} most often answers: `start` itself (a repository's root, or a folder in no
 * repository); undefined where it never does (a home folder, the filesystem root).
 */
export function likelyRepoRoot(start: string, options: RepoRootOptions = {}): string | undefined {
  const origin = platform.path.resolve(start);
  return homeTest(options)(origin) || platform.path.dirname(origin) === origin ? undefined : origin;
}

function homeTest(options: RepoRootOptions): (dir: string) => boolean {
  const homes = (options.homes ?? []).filter(Boolean).map((home) => platform.path.resolve(home));
  return (dir) => homes.some((home) => samePath(dir, home));
}

/**
 * Where the `.continue-notes` symlink `link` leads (its real path). A link to nothing, or to itself, is
 * `not_found` naming the link and its target, not a bare "no such file".
 */
export async function followNotesLink(link: string): Promise<string> {
  try {
    return await Deno.realPath(link);
  } catch (error) {
    const loop = error instanceof Deno.errors.FilesystemLoop;
    if (!(error instanceof Deno.errors.NotFound) && !loop) throw error;
    const target = await Deno.readLink(link).catch(() => "?");
    throw new ToolError(
      "not_found",
      `Cannot use "${toSlashes(link)}": it is a symlink to "${toSlashes(target)}", which ${
        loop ? "loops back to itself" : "does not exist"
      }; create that folder or replace the link with a folder`,
    );
  }
}

function samePath(a: string, b: string): boolean {
  return platform.isInside(a, b) && platform.isInside(b, a);
}
