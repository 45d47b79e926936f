/**
 * The per-user folder of the cross-process lock files, and the checks that make it safe to use while other
 * accounts share the machine. Every process of one user must find the same folder whatever its environment
 * (MCP clients spawn servers with different ones: the TypeScript SDK drops TMPDIR), so on POSIX it is named
 * by the uid in a fixed place, `/tmp/continue-mcp-locks-<uid>`, never by TMPDIR or USER. Another user can
 * create that name first: the folder is refused when it is a symlink, belongs to someone else or lets others
 * write in it, and a lock file is never opened through a symlink.
 * @module
 */
import { tmpdir } from "node:os";
import { ToolError } from "../mcp/errors.ts";
import { platform } from "../platform/mod.ts";

/** A lock folder that passed the checks, and the uid that owns it (null where the OS has none: Windows). */
export interface LockDir {
  path: string;
  uid: number | null;
}

/** `/tmp/continue-mcp-locks-<uid>` on POSIX; `<per-user temp>\continue-mcp-locks-<user>` on Windows. */
export async function defaultLockDir(): Promise<string> {
  return (await placeOf(undefined, "Cannot write")).path;
}

/** Creates `dir` (default {@link defaultLockDir}) 0700 if needed and checks it; else throws `unavailable`. */
export async function prepareLockDir(dir: string | undefined, action: string): Promise<LockDir> {
  const { path, uid } = await placeOf(dir, action);
  const parent = platform.path.dirname(path);
  try {
    await Deno.mkdir(path, { recursive: true, mode: 0o700 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw folderError(action, path, reasonOf(error));
  }
  const [info, above] = await Promise.all([Deno.lstat(path), Deno.stat(parent)]).catch((error) => {
    throw folderError(action, path, reasonOf(error));
  });
  const wrong = folderProblem(info, uid) ?? parentProblem(above, uid);
  if (wrong) throw folderError(action, path, wrong);
  return { path, uid };
}

/** The lock folder's path and our uid, probed in the folder's parent (created for an explicit `dir`). */
async function placeOf(dir: string | undefined, action: string): Promise<LockDir> {
  if (dir !== undefined) {
    const parent = platform.path.dirname(platform.path.resolve(dir));
    await Deno.mkdir(parent, { recursive: true }).catch(() => {});
    return { path: platform.path.resolve(dir), uid: await ownUid(parent, action) };
  }
  const parent = platform.lockParent(tmpdir());
  const uid = await ownUid(parent, action);
  return { path: platform.path.join(parent, platform.lockFolderName(uid, Deno.env.get("USERNAME"))), uid };
}

/**
 * Opens (creating it if needed) the lock file `name` of a checked folder, never through a symlink: Deno has
 * no O_NOFOLLOW, so an existing file is lstat-ed before and fstat-ed after opening, and both must be one
 * regular file of ours. Throws NotFound when the folder vanished (a temp cleaner): prepare it again.
 */
export async function openLockFile(dir: LockDir, name: string, action: string): Promise<Deno.FsFile> {
  const path = platform.path.join(dir.path, name);
  try {
    // O_CREAT|O_EXCL never follows a symlink, even a dangling one: it fails with AlreadyExists instead.
    return await Deno.open(path, { read: true, write: true, createNew: true, mode: 0o600 });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw error;
    if (!(error instanceof Deno.errors.AlreadyExists)) throw fileError(action, path, reasonOf(error));
  }
  const before = await Deno.lstat(path);
  if (before.isSymlink) throw fileError(action, path, "it is a symlink; remove it");
  if (!before.isFile) throw fileError(action, path, "it is not a regular file; remove it");
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true, write: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw error;
    throw fileError(action, path, reasonOf(error));
  }
  const after = await file.stat();
  // Where the OS has no inode numbers (null), a swap cannot be seen this way; only we write in the folder.
  const known = after.ino !== null && before.ino !== null;
  const problem = known && (after.ino !== before.ino || after.dev !== before.dev)
    ? "it was replaced while being opened"
    : owner(after, dir.uid);
  if (problem) {
    file.close();
    throw fileError(action, path, problem);
  }
  return file;
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

/**
 * The uid files we create get: the owner of a temp file made in `parent` (then removed). `Deno.uid()` would
 * need --allow-sys, which the writing servers do not have; creating files in `parent` is what they do anyway.
 */
async function ownUid(parent: string, action: string): Promise<number | null> {
  try {
    const probe = await Deno.makeTempFile({ dir: parent, prefix: ".continue-mcp-uid-" });
    try {
      return (await Deno.lstat(probe)).uid;
    } finally {
      await Deno.remove(probe).catch(() => {});
    }
  } catch (error) {
    throw new ToolError(
      "unavailable",
      `${action}: cannot create the file locks in "${parent}" (${reasonOf(error)}); make it writable`,
    );
  }
}

function folderProblem(info: Deno.FileInfo, uid: number | null): string | null {
  if (info.isSymlink) return "it is a symlink, not a folder; remove it";
  if (!info.isDirectory) return "it is not a folder; remove it";
  if (info.mode !== null && (info.mode & 0o022) !== 0) {
    return `other users may write in it (mode ${modeText(info.mode)}); remove it or run chmod 700 on it`;
  }
  return owner(info, uid);
}

/** A parent others may write in must be sticky (like /tmp), or they could rename our folder away. */
function parentProblem(info: Deno.FileInfo, uid: number | null): string | null {
  if (info.mode === null || uid === null) return null;
  const othersWrite = (info.mode & 0o022) !== 0 && (info.mode & 0o1000) === 0;
  if (!othersWrite && (info.uid === uid || info.uid === 0)) return null;
  return `other users may rename it: its parent folder is mode ${
    modeText(info.mode)
  }, owned by uid ${info.uid}`;
}

function owner(info: Deno.FileInfo, uid: number | null): string | null {
  if (uid === null || info.uid === null || info.uid === uid) return null;
  return `it belongs to uid ${info.uid}, not to this user (uid ${uid}); its owner or root must remove it`;
}

function folderError(action: string, path: string, reason: string): ToolError {
  return new ToolError("unavailable", `${action}: refusing the lock folder "${path}": ${reason}`);
}

function fileError(action: string, path: string, reason: string): ToolError {
  return new ToolError("unavailable", `${action}: refusing the lock file "${path}": ${reason}`);
}

function modeText(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(3, "0");
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
