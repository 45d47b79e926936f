/**
 * Atomic file replacement: write a temp file next to the target, flush it, give it the target's owner and
 * mode, then rename it over the target, so readers see either the old bytes or the new ones, never a
 * half-written file. Used through file_write.ts, which picks between this and an in-place write.
 * @module
 */
import { dirname } from "node:path";
import type { LockDir } from "./lock_dir.ts";
import { syncFolder, writeAll } from "./journal.ts";
import { createTemp } from "./temp_files.ts";

/** How {@link atomicWrite} writes. */
export interface AtomicWriteOptions {
  /** The private lock folder: the temp file's writer lock lives there (temp_files.ts). */
  dir: LockDir;
  /** The replaced file's stat, or null for a new file. */
  previous: Deno.FileInfo | null;
  /** Permission bits of the result; default: the replaced file's, or 0o666 minus umask for a new file. */
  mode?: number;
  /** Modification time to give the result (the notes server stamps a note's `updated` on its file). */
  mtime?: Date;
  /**
   * Runs after the temp file is written and flushed, right before the rename; throwing cancels the write.
   * A re-check of the target here leaves the smallest window for a writer that does not take our lock.
   */
  beforeRename?: () => Promise<void>;
}

/**
 * Replaces `path` with `data` atomically (temp file in the same folder + rename), keeping the replaced
 * file's owner, group and mode, setuid/setgid included. Returns false, having written nothing, when the
 * replacement cannot have them (the OS refused the chown or a mode bit): write in place instead. The temp
 * file is removed on every failure.
 */
export async function atomicWrite(
  path: string,
  data: Uint8Array,
  options: AtomicWriteOptions,
): Promise<boolean> {
  const { previous } = options;
  const mode = options.mode ?? previous?.mode ?? undefined;
  // A known final mode starts private and is set after the write, so a secret file is never briefly public.
  const temp = await createTemp(path, options.dir, mode === undefined ? 0o666 : 0o600);
  try {
    try {
      await writeAll(temp.file, data);
      await temp.file.syncData();
    } finally {
      temp.file.close();
    }
    if (typeof previous?.uid === "number" && typeof previous.gid === "number") {
      // Keeping the owner needs privileges we usually lack; a failure is seen by the check below.
      await Deno.chown(temp.path, previous.uid, previous.gid).catch(() => {});
    }
    // After the chown, which clears setuid and setgid.
    if (mode !== undefined) await chmodIfSupported(temp.path, mode & 0o7777);
    if (previous && !keepsMetadata(await Deno.stat(temp.path), previous, mode)) {
      await Deno.remove(temp.path);
      return false;
    }
    if (options.mtime) await Deno.utime(temp.path, options.mtime, options.mtime);
    await options.beforeRename?.();
    await Deno.rename(temp.path, path);
  } catch (error) {
    await Deno.remove(temp.path).catch(() => {});
    throw error;
  } finally {
    await temp.release();
  }
  await syncFolder(dirname(path));
  return true;
}

/** Whether the temp file got the replaced file's owner and group and the intended mode. */
function keepsMetadata(temp: Deno.FileInfo, previous: Deno.FileInfo, mode: number | undefined): boolean {
  const differs = (a: number | null, b: number | null | undefined) =>
    a !== null && b !== null && b !== undefined && a !== b;
  return !differs(temp.uid, previous.uid) && !differs(temp.gid, previous.gid) &&
    !differs(temp.mode === null ? null : temp.mode & 0o7777, mode === undefined ? undefined : mode & 0o7777);
}

async function chmodIfSupported(path: string, mode: number): Promise<void> {
  try {
    await Deno.chmod(path, mode);
  } catch (error) {
    // Windows has no permission bits: Deno.chmod is not implemented there.
    if (!(error instanceof Deno.errors.NotSupported) && !(error instanceof TypeError)) throw error;
  }
}
