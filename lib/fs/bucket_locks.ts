/**
 * Taking the OS locks (`Deno.FsFile.tryLock`: flock on POSIX, LockFileEx on Windows) of lock files: in every
 * lock folder of the run, folder by folder, each bucket's file in ascending order. Every process takes them
 * in that one order, so two runs never wait for each other in a circle.
 * @module
 */
import { join } from "node:path";
import { ToolError } from "../mcp/errors.ts";
import { isStillThere, type LockDir, openLockFile } from "./lock_dir.ts";

/** When to give up and what to say. */
export interface BucketLockOptions {
  /** The failed action and the path as shown. */
  action: string;
  /** `performance.now()` after which a held lock is a `timeout`. */
  deadline: number;
  /** The wait the deadline stands for, for the message. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Locks the files of `buckets` in every folder of `dir`. Throws NotFound when a folder vanished (a temp
 * cleaner): prepare the folders again.
 */
export async function lockBuckets(
  dir: LockDir,
  buckets: readonly number[],
  options: BucketLockOptions,
): Promise<Deno.FsFile[]> {
  const files: Deno.FsFile[] = [];
  try {
    for (const folder of dir.folders) {
      for (const bucket of [...new Set(buckets)].sort((a, b) => a - b)) {
        files.push(await lockOne(folder, `${bucket.toString(16).padStart(2, "0")}.lock`, options));
      }
    }
    return files;
  } catch (error) {
    for (const file of files) file.close();
    throw error;
  }
}

async function lockOne(folder: string, name: string, options: BucketLockOptions): Promise<Deno.FsFile> {
  const path = join(folder, name);
  let pause = 1;
  while (true) {
    const file = await openLockFile(folder, name, options.action).catch((error) => {
      throw lockError(error, folder, options.action);
    });
    try {
      // A temp cleaner may delete a lock file while it is held: a lock on a deleted file guards nothing.
      if (await file.tryLock(true) && await isStillThere(file, path)) return file;
    } catch (error) {
      file.close();
      throw error;
    }
    file.close();
    options.signal?.throwIfAborted();
    if (performance.now() > options.deadline) {
      throw new ToolError(
        "timeout",
        `${options.action}: another process has held the file's lock for ${options.timeoutMs / 1000} s; ` +
          `try again, or stop the other tool that is writing it`,
      );
    }
    await new Promise((done) => setTimeout(done, pause));
    pause = Math.min(pause * 2, 25);
  }
}

/** NotFound (the folder vanished) passes as is, for the caller to prepare the folders again. */
function lockError(error: unknown, folder: string, action: string): Error {
  if (error instanceof ToolError || error instanceof Deno.errors.NotFound) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolError("unavailable", `${action}: cannot open a lock file in "${folder}" (${reason})`);
}
