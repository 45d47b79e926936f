/**
 * The per-user folders of the cross-process lock files, journals and writer locks, and the checks that make
 * them safe while other accounts share the machine. Every process of one user must lock in the same folder
 * whatever its environment (MCP clients spawn servers with different ones: the TypeScript SDK drops TMPDIR),
 * so no folder is named by TMPDIR, USER or HOME:
 * - the primary is named by the uid in a fixed place: `/tmp/continue-mcp-locks-<uid>` on POSIX;
 * - another user can create that name before us: then the fallback `<home>/.cache/continue-mcp/locks` is
 *   used, the home as the account database gives it for our uid (lock_places.ts).
 *
 * The squatter can also remove its folder later, and a server starting then creates the primary while
 * others use the fallback. So a run locks in every folder a server may be using: the primary when it is ours,
 * the fallback once it exists (it is never removed), in that order, and checks the set again once it holds
 * the locks ({@link currentFolders}): a run that saw neither change shares a folder with every other run.
 * Each folder is refused when it is a symlink, not ours or open to others, or sits where others could rename
 * it; a lock file is never opened through a symlink.
 * @module
 */
import { ToolError } from "../mcp/errors.ts";
import { platform } from "../platform/mod.ts";
import { type LockPlaces, lockPlaces, lockUid } from "./lock_places.ts";
import { checkAncestors, ensurePrivateDir, openPrivateFile } from "./private_dir.ts";

/** The checked lock folders of a run, and the uid that owns them (null where the OS has none: Windows). */
export interface LockDir {
  /** Where a run takes its locks, in this order; journals and writer locks go to the last one. */
  folders: string[];
  /** The last of {@link folders}. */
  path: string;
  uid: number | null;
  /** Where the default folders may be, to find them again; null for an explicit folder. */
  places: LockPlaces | null;
}

/** The primary lock folder: `/tmp/continue-mcp-locks-<uid>` (Windows: in the per-user temp folder). */
export async function defaultLockDir(): Promise<string> {
  return (await lockPlaces("Cannot write")).primary;
}

/**
 * Finds (creating the primary, else the fallback, when neither is in use) and checks the lock folders, or
 * `dir` alone when given; else throws `unavailable`.
 */
export async function prepareLockDir(dir: string | undefined, action: string): Promise<LockDir> {
  if (dir !== undefined) return await explicitDir(platform.path.resolve(dir), action);
  const places = await lockPlaces(action);
  let folders = await foldersIn(places);
  if (folders.length === 0) {
    await createFolder(places, action);
    folders = await foldersIn(places);
  }
  if (folders.length === 0) throw refusal(action, places.primary, "it vanished while being made: try again");
  for (const folder of folders) await checked(folder, action);
  return { folders, path: folders[folders.length - 1], uid: places.uid, places };
}

/**
 * The folders a run must lock in now; differs from `dir.folders` when one was made or went since. Two lstat
 * calls: the checks of {@link prepareLockDir} hold until our folders change, which only we (or root) can do,
 * and a change means preparing again.
 */
export function currentFolders(dir: LockDir): Promise<string[]> {
  return dir.places ? foldersIn(dir.places) : Promise.resolve(dir.folders);
}

/** The default folders in use: the primary when it is ours, the fallback when it exists. */
async function foldersIn(places: LockPlaces): Promise<string[]> {
  const folders: string[] = [];
  if (await ownerOf(places.primary, places.uid) === "ours") folders.push(places.primary);
  if (places.fallback && await lstatOrNull(places.fallback)) folders.push(places.fallback);
  return folders;
}

/**
 * Makes the primary, or the fallback when another user took the primary's name first (or it cannot be made:
 * the fallback is safe to use for any reason, since every run locks in it once it exists).
 */
async function createFolder(places: LockPlaces, action: string): Promise<void> {
  let problem = await ownerOf(places.primary, places.uid);
  if (problem === "absent") {
    try {
      await check(places.primary, true);
      return;
    } catch (error) {
      problem = reasonOf(error);
    }
  }
  const now = await ownerOf(places.primary, places.uid);
  if (now === "ours") return; // Made by another server of ours meanwhile: checked by the caller.
  if (now !== "absent") problem = now;
  if (!places.fallback) {
    throw refusal(action, places.primary, `${problem}, and there is no fallback: ${places.noFallback}`);
  }
  try {
    await check(places.fallback, true);
  } catch (error) {
    throw refusal(
      action,
      places.primary,
      `${problem}, and the fallback "${places.fallback}" cannot be used either: ${reasonOf(error)}`,
    );
  }
}

/** Checks (or creates, 0700) a lock folder and the folders above it; else throws `unavailable`. */
async function checked(path: string, action: string, create = false): Promise<string> {
  try {
    await check(path, create);
  } catch (error) {
    throw refusal(action, path, reasonOf(error));
  }
  return path;
}

/** Checks the folders above first: nothing is made where others could rename it away. */
async function check(path: string, create: boolean): Promise<void> {
  await checkAncestors(path);
  await ensurePrivateDir(path, { create });
}

async function explicitDir(path: string, action: string): Promise<LockDir> {
  const parent = platform.path.dirname(path);
  await Deno.mkdir(parent, { recursive: true }).catch(() => {});
  const uid = await lockUid(parent, action);
  return { folders: [await checked(path, action, true)], path, uid, places: null };
}

/** "absent", "ours", or why the name is someone else's (a folder or link another user made). */
async function ownerOf(path: string, uid: number | null): Promise<"absent" | "ours" | string> {
  const info = await lstatOrNull(path);
  if (!info) return "absent";
  if (uid === null || info.uid === null || info.uid === uid) return "ours";
  return `it belongs to another user (uid ${info.uid}, not ${uid})`;
}

/** A name in one of the lock folders. */
export interface LockFolderEntry {
  folder: string;
  name: string;
}

/** The names in the lock folders of `dir`, read once; best effort (a folder that cannot be read adds none). */
export async function lockFolderEntries(dir: LockDir): Promise<LockFolderEntry[]> {
  const entries: LockFolderEntry[] = [];
  for (const folder of dir.folders) {
    try {
      for await (const entry of Deno.readDir(folder)) entries.push({ folder, name: entry.name });
    } catch {
      // Gone (a temp cleaner) or unreadable: its cleanups wait for the next write.
    }
  }
  return entries;
}

/**
 * Opens (creating it if needed) the lock file `name` of the checked folder `folder`, never through a
 * symlink. Throws NotFound when the folder vanished (a temp cleaner): prepare it again.
 */
export async function openLockFile(folder: string, name: string, action: string): Promise<Deno.FsFile> {
  const path = platform.path.join(folder, name);
  try {
    const file = await openPrivateFile(path, { write: true, create: true });
    if (file) return file;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw error;
    throw new ToolError("unavailable", `${action}: refusing the lock file "${path}": ${reasonOf(error)}`);
  }
  throw new Deno.errors.NotFound(`the lock file "${path}" vanished while being opened`);
}

/**
 * Whether the open lock file `file` is still the one at `path`: a temp cleaner (or ours: temp_files.ts) may
 * delete a lock file while it is being locked, and a lock on a deleted file guards nothing.
 */
export async function isStillThere(file: Deno.FsFile, path: string): Promise<boolean> {
  const held = await file.stat();
  if (held.ino === null) return true; // No inode numbers here (Windows): an open file cannot be deleted there.
  const current = await Deno.lstat(path).catch(() => null);
  return current !== null && current.ino === held.ino && current.dev === held.dev;
}

function refusal(action: string, path: string, reason: string): ToolError {
  return new ToolError("unavailable", `${action}: refusing the lock folder "${path}": ${reason}`);
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}
