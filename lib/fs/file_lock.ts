/**
 * A lock on one file path that every server process honours: read → check → write → rename of a file
 * happens under it, so two servers (or two calls of one) never overwrite each other's changes.
 *
 * The OS lock (`Deno.FsFile.tryLock`: flock on POSIX, LockFileEx on Windows) is taken on a lock file in a
 * per-user folder (`/tmp/continue-mcp-locks-<uid>`, checked before use: see lock_dir.ts), not next to the
 * target: an atomic rename replaces the target's inode (a lock on it would guard nothing), Windows locks are mandatory (a lock on the target would block readers),
 * and lock files in the user's folders would litter the repository. The path's hash picks one of
 * {@link BUCKETS} lock files, so at most that many empty files exist; two paths sharing one only wait for
 * each other briefly. The OS releases the lock when its holder dies: there are no stale locks.
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { ToolError } from "../mcp/errors.ts";
import { KeyedLock } from "../sync/keyed_lock.ts";
import { sha256Hex } from "./sha256.ts";
import { type LockDir, openLockFile, prepareLockDir } from "./lock_dir.ts";

export { defaultLockDir } from "./lock_dir.ts";

/** How many lock files the paths are spread over. */
export const BUCKETS = 256;
/** How long a call waits for another process's lock before giving up. */
export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;

/** How {@link FileLocks} finds its lock files and how long it waits. */
export interface FileLocksOptions {
  /** Folder of the lock files; default {@link defaultLockDir}. Every process must agree on it. */
  dir?: string;
  timeoutMs?: number;
}

/** What a locked run is about, for the timeout error. */
export interface LockRunOptions {
  /** The failed action and the path as shown, e.g. `Cannot edit "src/a.ts"`. */
  action?: string;
  signal?: AbortSignal;
}

/** Cross-process locks on file paths; within one process, runs on one path queue instead of polling. */
export class FileLocks {
  #local = new KeyedLock();
  #dir: string | undefined;
  /** The checked folder, found at the first lock; forgotten after a failure, so a fixed folder is retried. */
  #checked: Promise<LockDir> | undefined;
  #timeoutMs: number;

  constructor(options: FileLocksOptions = {}) {
    this.#dir = options.dir;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  }

  /** Runs `fn` while holding the lock of `path`; throws `timeout` when another process holds it too long. */
  async run<T>(path: string, fn: () => Promise<T>, options: LockRunOptions = {}): Promise<T> {
    // Keyed before any await, so calls on one path in one process keep their order.
    return await this.#local.run(resolve(path), async () => {
      const key = await lockKey(path);
      const file = await this.#acquire(await bucketOf(key), `Cannot change "${basename(key)}"`, options);
      try {
        return await fn();
      } finally {
        file.close(); // Closing the handle releases the OS lock.
      }
    });
  }

  /**
   * Runs `fn` while holding the locks of every path (one call that writes several files). Paths and lock
   * files are taken in one sorted order, so two such runs never wait for each other in a circle, and a lock
   * file two paths share is taken once: a second OS lock on it from this process would wait for itself.
   */
  async runAll<T>(paths: readonly string[], fn: () => Promise<T>, options: LockRunOptions = {}): Promise<T> {
    const keys = [...new Set(paths.map((path) => resolve(path)))].sort();
    const locked = async () => {
      const buckets = [...new Set(await Promise.all(keys.map(async (key) => bucketOf(await lockKey(key)))))];
      const files: Deno.FsFile[] = [];
      try {
        for (const bucket of buckets.sort((a, b) => a - b)) {
          const fallback = keys.length === 1
            ? `Cannot change "${basename(keys[0])}"`
            : `Cannot change ${keys.length} files`;
          files.push(await this.#acquire(bucket, fallback, options));
        }
        return await fn();
      } finally {
        for (const file of files) file.close();
      }
    };
    const nest = (at: number): Promise<T> =>
      at === keys.length ? locked() : this.#local.run(keys[at], () => nest(at + 1));
    return await nest(0);
  }

  async #acquire(bucket: number, fallbackAction: string, options: LockRunOptions): Promise<Deno.FsFile> {
    const name = `${bucket.toString(16).padStart(2, "0")}.lock`;
    const action = options.action ?? fallbackAction;
    const deadline = performance.now() + this.#timeoutMs;
    let pause = 1;
    while (true) {
      const { file, path } = await this.#open(name, action);
      try {
        // A temp cleaner may delete a lock file while it is held: a lock on a deleted file guards nothing.
        if (await file.tryLock(true) && await isStillThere(file, path)) return file;
      } catch (error) {
        file.close();
        throw error;
      }
      file.close();
      options.signal?.throwIfAborted();
      if (performance.now() > deadline) {
        throw new ToolError(
          "timeout",
          `${action}: another process has held the file's lock for ${this.#timeoutMs / 1000} s; ` +
            `try again, or stop the other tool that is writing it`,
        );
      }
      await new Promise((done) => setTimeout(done, pause));
      pause = Math.min(pause * 2, 25);
    }
  }

  /** Opens lock file `name`; a folder that vanished (a temp cleaner) is made and checked again, once. */
  async #open(name: string, action: string): Promise<{ file: Deno.FsFile; path: string }> {
    for (let attempt = 0;; attempt++) {
      const dir = await this.#folder(action);
      try {
        return { file: await openLockFile(dir, name, action), path: join(dir.path, name) };
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound) || attempt > 0) throw lockError(error, dir.path, action);
        this.#checked = undefined;
      }
    }
  }

  #folder(action: string): Promise<LockDir> {
    if (!this.#checked) {
      const checked = prepareLockDir(this.#dir, action);
      this.#checked = checked;
      checked.catch(() => {
        if (this.#checked === checked) this.#checked = undefined;
      });
    }
    return this.#checked;
  }
}

/** Which of the {@link BUCKETS} lock files guards `key`. */
async function bucketOf(key: string): Promise<number> {
  return parseInt((await sha256Hex(new TextEncoder().encode(key))).slice(0, 8), 16) % BUCKETS;
}

/** The real path (the folder resolved, so two spellings of one file share a lock). */
async function lockKey(path: string): Promise<string> {
  const absolute = resolve(path);
  try {
    return join(await Deno.realPath(dirname(absolute)), basename(absolute));
  } catch {
    return absolute; // A folder that does not exist yet: the write creates it.
  }
}

async function isStillThere(file: Deno.FsFile, lockPath: string): Promise<boolean> {
  const held = await file.stat();
  if (held.ino === null) return true; // No inode numbers here (Windows): an open file cannot be deleted there.
  const current = await Deno.lstat(lockPath).catch(() => null);
  return current !== null && current.ino === held.ino && current.dev === held.dev;
}

function lockError(error: unknown, dir: string, action: string): ToolError {
  if (error instanceof ToolError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolError("unavailable", `${action}: cannot open a lock file in "${dir}" (${reason})`);
}
