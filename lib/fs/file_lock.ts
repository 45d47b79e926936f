/**
 * A lock on one file that every server process honours: read → check → write → rename of a file happens
 * under it, so two servers (or two calls of one) never overwrite each other's changes.
 *
 * A file is locked by two keys (lock_keys.ts): its path, and its identity (device + inode) when it exists, so
 * two hard-link names of one file meet at one lock, and so do the file before and after a rename-replace.
 * The identity is read before locking and checked again after: a file replaced in between is locked anew.
 * Once locked, an in-place write of the file that a killed writer left unfinished is completed first
 * (in_place_write.ts), so whoever holds the lock sees a whole file.
 *
 * The OS lock (`Deno.FsFile.tryLock`: flock on POSIX, LockFileEx on Windows) is taken on a lock file in a
 * per-user folder (`/tmp/continue-mcp-locks-<uid>`, checked before use: see lock_dir.ts), not next to the
 * target: an atomic rename replaces the target's inode (a lock on it would guard nothing), Windows locks are
 * mandatory (a lock on the target would block readers), and lock files in the user's folders would litter
 * the repository. A key's hash picks one of {@link BUCKETS} lock files, so at most that many empty files
 * exist; two keys sharing one only wait for each other briefly. Lock files are always taken in ascending
 * order, so two runs never wait for each other in a circle. The OS releases the lock when its holder dies:
 * there are no stale locks.
 * @module
 */
import { basename, join, resolve } from "node:path";
import { ToolError } from "../mcp/errors.ts";
import { KeyedLock } from "../sync/keyed_lock.ts";
import { isStillThere, type LockDir, openLockFile, prepareLockDir } from "./lock_dir.ts";
import { bucketOf, identityOf, journalKey, type LockTarget, lockTarget } from "./lock_keys.ts";
import { completeInterrupted } from "./in_place_write.ts";

export { defaultLockDir } from "./lock_dir.ts";

/** How many lock files the keys are spread over. */
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

/** Cross-process locks on files; within one process, runs on one path queue instead of polling. */
export class FileLocks {
  #local = new KeyedLock();
  #dir: string | undefined;
  /** The checked folder, found at the first lock; forgotten after a failure, so a fixed folder is retried. */
  #checked: Promise<LockDir> | undefined;
  #timeoutMs: number;
  /** Paths (resolved) whose runs are under way, for {@link assertHeld}. */
  #held = new Map<string, number>();
  #visited = new Set<string>();

  constructor(options: FileLocksOptions = {}) {
    this.#dir = options.dir;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  }

  /** Runs `fn` while holding the lock of `path`; throws `timeout` when another process holds it too long. */
  run<T>(path: string, fn: () => Promise<T>, options: LockRunOptions = {}): Promise<T> {
    return this.runAll([path], fn, options);
  }

  /**
   * Runs `fn` while holding the locks of every path (one call that writes several files). Paths and lock
   * files are taken in one sorted order, so two such runs never wait for each other in a circle, and a lock
   * file two keys share is taken once: a second OS lock on it from this process would wait for itself.
   */
  async runAll<T>(paths: readonly string[], fn: () => Promise<T>, options: LockRunOptions = {}): Promise<T> {
    // Keyed before any await, so calls on one path in one process keep their order.
    const keys = [...new Set(paths.map((path) => resolve(path)))].sort();
    const fallback = keys.length === 1
      ? `Cannot change "${basename(keys[0])}"`
      : `Cannot change ${keys.length} files`;
    const action = options.action ?? fallback;
    const locked = async () => {
      const deadline = performance.now() + this.#timeoutMs;
      while (true) {
        const targets = await Promise.all(keys.map(lockTarget));
        const files = await this.#acquireAll(targets, action, deadline, options);
        try {
          // Replaced (or created) between the look and the lock: lock what is there now.
          const now = await Promise.all(keys.map(identityOf));
          if (now.some((identity, at) => identity !== targets[at].identity)) {
            if (performance.now() > deadline) {
              throw new ToolError("timeout", `${action}: the file keeps being replaced`);
            }
            continue;
          }
          const dir = await this.#folder(action);
          for (const target of targets) {
            await completeInterrupted(dir, journalKey(target), target.path, action);
          }
          return await this.#holding(keys, fn);
        } finally {
          for (const file of files) file.close(); // Closing the handle releases the OS lock.
        }
      }
    };
    const nest = (at: number): Promise<T> =>
      at === keys.length ? locked() : this.#local.run(keys[at], () => nest(at + 1));
    return await nest(0);
  }

  /** Throws unless a run of this object holds the lock of `path`: writes go through a lock, always. */
  assertHeld(path: string): void {
    if (!this.#held.has(resolve(path))) {
      throw new ToolError("internal", `Cannot write "${basename(path)}": its file lock is not held`);
    }
  }

  /** True the first time it is asked about `folder`: the write path looks for old temp files once a folder. */
  firstVisit(folder: string): boolean {
    if (this.#visited.has(folder)) return false;
    this.#visited.add(folder);
    return true;
  }

  /** The checked lock folder (where journals and writer locks live too). */
  lockDir(action: string): Promise<LockDir> {
    return this.#folder(action);
  }

  async #holding<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
    for (const key of keys) this.#held.set(key, (this.#held.get(key) ?? 0) + 1);
    try {
      return await fn();
    } finally {
      for (const key of keys) {
        const count = this.#held.get(key)! - 1;
        if (count === 0) this.#held.delete(key);
        else this.#held.set(key, count);
      }
    }
  }

  /** Takes the lock files of every key of `targets`, each once, in ascending order. */
  async #acquireAll(
    targets: LockTarget[],
    action: string,
    deadline: number,
    options: LockRunOptions,
  ): Promise<Deno.FsFile[]> {
    const keys = targets.flatMap((target) => [target.pathKey, ...(target.identity ? [target.identity] : [])]);
    const buckets = [...new Set(await Promise.all(keys.map((key) => bucketOf(key, BUCKETS))))];
    const files: Deno.FsFile[] = [];
    try {
      for (const bucket of buckets.sort((a, b) => a - b)) {
        files.push(await this.#acquire(bucket, action, deadline, options));
      }
      return files;
    } catch (error) {
      for (const file of files) file.close();
      throw error;
    }
  }

  async #acquire(
    bucket: number,
    action: string,
    deadline: number,
    options: LockRunOptions,
  ): Promise<Deno.FsFile> {
    const name = `${bucket.toString(16).padStart(2, "0")}.lock`;
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

function lockError(error: unknown, dir: string, action: string): ToolError {
  if (error instanceof ToolError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolError("unavailable", `${action}: cannot open a lock file in "${dir}" (${reason})`);
}
