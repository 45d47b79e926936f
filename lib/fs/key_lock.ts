/**
 * Holding the lock of one raw key (a file's identity or path key: lock_keys.ts), or of every key, with no
 * path to lock: what a journal whose file is gone is removed under. A writer holds its file's keys for its
 * whole run, so whoever holds one knows that no writer of that file is alive.
 * @module
 */
import { ToolError } from "../mcp/errors.ts";
import { lockBuckets } from "./bucket_locks.ts";
import { BUCKETS, DEFAULT_LOCK_TIMEOUT_MS, type FileLocks } from "./file_lock.ts";
import { currentFolders } from "./lock_dir.ts";
import { bucketOf } from "./lock_keys.ts";

/** How {@link withKeyLock} waits. */
export interface KeyLockOptions {
  action: string;
  /** Wait up to the usual lock timeout; else give up at once when another run holds the key. */
  wait: boolean;
}

/**
 * Runs `fn` holding the lock of `key` (of every key when null: never waited for) in every lock folder of
 * `locks`; resolves to undefined, without running it, when the lock is not had (held by another run, or the
 * lock folders changed meanwhile: the next try sees them).
 */
export async function withKeyLock<T>(
  locks: FileLocks,
  key: string | null,
  fn: () => Promise<T>,
  options: KeyLockOptions,
): Promise<T | undefined> {
  const dir = await locks.lockDir(options.action);
  const buckets = key === null
    ? Array.from({ length: BUCKETS }, (_, i) => i)
    : [await bucketOf(key, BUCKETS)];
  let files: Deno.FsFile[];
  try {
    files = await lockBuckets(dir, buckets, {
      action: options.action,
      // Every key is only tried: waiting on one while holding the others would stall every other run.
      deadline: options.wait && key !== null ? performance.now() + DEFAULT_LOCK_TIMEOUT_MS : -Infinity,
      timeoutMs: DEFAULT_LOCK_TIMEOUT_MS,
    });
  } catch (error) {
    if (error instanceof ToolError && error.code === "timeout") return undefined;
    throw error;
  }
  try {
    const now = await currentFolders(dir);
    if (now.length !== dir.folders.length || now.some((folder, at) => folder !== dir.folders[at])) {
      return undefined;
    }
    return await fn();
  } finally {
    for (const file of files) file.close(); // Closing the handle releases the OS lock.
  }
}
