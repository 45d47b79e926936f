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
import { ensurePrivateDir, NotPrivateError, openPrivateFile, ownUid } from "./private_dir.ts";

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
  try {
    await ensurePrivateDir(path, { create: true });
    const problem = parentProblem(await Deno.stat(platform.path.dirname(path)), uid);
    if (problem) throw new NotPrivateError(problem);
  } catch (error) {
    throw new ToolError("unavailable", `${action}: refusing the lock folder "${path}": ${reasonOf(error)}`);
  }
  return { path, uid };
}

/** The lock folder's path and our uid, probed in the folder's parent (created for an explicit `dir`). */
async function placeOf(dir: string | undefined, action: string): Promise<LockDir> {
  const path = dir === undefined ? undefined : platform.path.resolve(dir);
  const parent = path === undefined ? platform.lockParent(tmpdir()) : platform.path.dirname(path);
  if (path !== undefined) await Deno.mkdir(parent, { recursive: true }).catch(() => {});
  let uid;
  try {
    // The writing servers lack --allow-sys: the uid comes from a file made where the locks go anyway.
    uid = await ownUid(parent);
  } catch (error) {
    throw new ToolError(
      "unavailable",
      `${action}: cannot create the file locks in "${parent}" (${reasonOf(error)}); make it writable`,
    );
  }
  return {
    path: path ?? platform.path.join(parent, platform.lockFolderName(uid, Deno.env.get("USERNAME"))),
    uid,
  };
}

/**
 * Opens (creating it if needed) the lock file `name` of a checked folder, never through a symlink. Throws
 * NotFound when the folder vanished (a temp cleaner): prepare it again.
 */
export async function openLockFile(dir: LockDir, name: string, action: string): Promise<Deno.FsFile> {
  const path = platform.path.join(dir.path, name);
  try {
    const file = await openPrivateFile(path, { write: true, create: true });
    if (file) return file;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw error;
    throw new ToolError("unavailable", `${action}: refusing the lock file "${path}": ${reasonOf(error)}`);
  }
  throw new Deno.errors.NotFound(`the lock file "${path}" vanished while being opened`);
}

/** A parent others may write in must be sticky (like /tmp), or they could rename our folder away. */
function parentProblem(info: Deno.FileInfo, uid: number | null): string | null {
  if (info.mode === null || uid === null) return null;
  const othersWrite = (info.mode & 0o022) !== 0 && (info.mode & 0o1000) === 0;
  if (!othersWrite && (info.uid === uid || info.uid === 0)) return null;
  return `other users may rename it: its parent folder is mode ${
    (info.mode & 0o7777).toString(8).padStart(3, "0")
  }, owned by uid ${info.uid}`;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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
