/**
 * A lock on one file that every server process honours: read → check → write → rename of a file happens under
 * it, so two servers (or two calls of one) never overwrite each other's changes.
 *
 * A file is locked by two keys (lock_keys.ts): its path, and its identity (device + inode) when it exists, so
 * two hard-link names of one file meet at one lock, and so do the file before and after a rename-replace. The
 * identity is read before locking and checked again after: a file replaced in between is locked anew. Once
 * locked, an in-place write of the file that a killed writer left unfinished is completed first
 * (in_place_write.ts), so whoever holds the lock sees a whole file.
 *
 * The OS lock (`Deno.FsFile.tryLock`: flock on POSIX, LockFileEx on Windows) is taken on a lock file in the
 * per-user lock folders (`/tmp/continue-mcp-locks-<uid>`, or a fallback under the home when another user took
 * that name; checked before use: see lock_dir.ts), not next to the target: an atomic rename replaces the
 * target's inode (a lock on it would guard nothing), Windows locks are mandatory (a lock on the target would
 * block readers), and lock files in the user's folders would litter the repository. A key's hash picks one of
 * {@link BUCKETS} lock files, so at most that many empty files exist; two keys sharing one only wait for each
 * other briefly. Lock files are always taken in one order (bucket_locks.ts), so two runs never wait for each
 * other in a circle. The OS releases the lock when its holder dies: there are no stale locks.
 * @module
 */
import { basename, resolve } from "node:path";
import { ToolError } from "../mcp/errors.ts";
import { KeyedLock } from "../sync/keyed_lock.ts";
import { currentFolders, type LockDir, prepareLockDir } from "./lock_dir.ts";
import { lockBuckets } from "./bucket_locks.ts";
import { bucketOf, identityOf, journalKey, lockTarget } from "./lock_keys.ts";
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
  /**
   * Journals (path and mtime) a write's sweep found to belong to a file at another name than the one they
   * name, or could not decide on: left to the file's next run and the next server start, not looked at again.
   */
  readonly keptJournals: Set<string> = new Set();

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
      let vanished = 0;
      while (true) {
        const dir = await this.#folder(action);
        const targets = await Promise.all(keys.map(lockTarget));
        const lockKeys = targets.flatMap((target) => [target.pathKey, target.identity ?? []].flat());
        const buckets = await Promise.all(lockKeys.map((key) => bucketOf(key, BUCKETS)));
        let files: Deno.FsFile[];
        try {
          files = await lockBuckets(dir, buckets, {
            action,
            deadline,
            timeoutMs: this.#timeoutMs,
            ...options,
          });
        } catch (error) {
          // A folder that vanished (a temp cleaner), or was taken by another user since (after a cleaner):
          // the folders are found and checked again.
          if (error instanceof ToolError && error.code === "timeout") throw error;
          const changed = !sameFolders(await currentFolders(dir).catch(() => []), dir.folders);
          if (!changed && !(error instanceof Deno.errors.NotFound)) throw error;
          this.#forget();
          if (vanished++ > 0) throw lockError(error, dir.path, action);
          continue;
        }
        try {
          // A lock folder made (or gone) since this run chose its folders: another run may not lock where
          // this one did. Holding the locks now, choose again.
          const same = sameFolders(await currentFolders(dir), dir.folders);
          // Replaced (or created) between the look and the lock: lock what is there now.
          const now = await Promise.all(keys.map(identityOf));
          if (!same || now.some((identity, at) => identity !== targets[at].identity)) {
            if (!same) this.#forget();
            if (performance.now() > deadline) {
              throw new ToolError("timeout", `${action}: the file (or its lock folder) keeps being replaced`);
            }
            continue;
          }
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

  /** Forgets the checked folders, so the next run finds them again. */
  #forget(): void {
    this.#checked = undefined;
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

function sameFolders(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((folder, at) => folder === b[at]);
}

function lockError(error: unknown, dir: string, action: string): ToolError {
  if (error instanceof ToolError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolError("unavailable", `${action}: cannot open a lock file in "${dir}" (${reason})`);
}
