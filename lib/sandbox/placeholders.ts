/**
 * Placeholders for protected names that do not exist (`.vscode`, `.mcp.json`, `.git/hooks`…): a bind mount
 * needs something to mount on, and a missing name must stay uncreatable while a job runs. The placeholder
 * is made in the user's workspace for as long as some job needs it, then removed. It is an empty folder
 * (git ignores empty ones: no `git add -A` picks it up; rmdir never removes content), except inside `.git`
 * where git reads the name as a file (see {@link placeholderFile}).
 *
 * Removal must not pull the mount from under another job: removing a mount point on the host detaches it in
 * every other mount namespace, which would let that job create the name after all. So each placeholder has
 * a lock file (in the per-user lock folder) that every server holding it locks shared while any of its jobs
 * runs; only the last one out gets the exclusive lock and removes it, and only if it is still the empty
 * folder a server made (its device and inode, recorded in the lock file). A killed server's locks end with
 * it; its placeholders are removed by the next server that holds and releases them, or {@link sweep}s them.
 * @module
 */
import { sha256Hex } from "../fs/sha256.ts";
import { type LockDir, openLockFile, prepareLockDir } from "../fs/lock_dir.ts";
import { KeyedLock } from "../sync/keyed_lock.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** A remover holds the exclusive lock for a moment only: waiting longer than this means something is wrong. */
const SHARED_WAIT_MS = 5000;
const POLL_MS = 10;

interface Held {
  count: number;
  file: Deno.FsFile;
}

/**
 * The content of a placeholder that must be a file, or undefined for a folder: git fails on a `.git/config`
 * or `.git/commondir` that is a folder, reads an empty config as none, and a `commondir` of `.` as itself.
 */
export function placeholderFile(path: string): string | undefined {
  const parts = path.split("/");
  if (parts.at(-2) !== ".git") return undefined;
  return ({ config: "", commondir: ".\n" } as Record<string, string>)[parts.at(-1)!];
}

/** This process's placeholders. */
export class Placeholders {
  #lockDir: string | undefined;
  #dir: Promise<LockDir> | undefined;
  #held = new Map<string, Held>();
  #queue = new KeyedLock();

  /** `lockDir`: where the lock files go (default: the per-user lock folder). */
  constructor(options: { lockDir?: string } = {}) {
    this.#lockDir = options.lockDir;
  }

  /**
   * Makes each of `paths` exist (an empty folder where it is missing) until the returned release is called.
   * Throws when a placeholder cannot be made: the job must then not start.
   */
  async hold(paths: readonly string[]): Promise<() => Promise<void>> {
    const taken: string[] = [];
    try {
      for (const path of paths) {
        await this.#queue.run(path, () => this.#hold(path));
        taken.push(path);
      }
    } catch (error) {
      await this.#releaseAll(taken);
      throw error;
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await this.#releaseAll(taken);
    };
  }

  /** Removes placeholders of `paths` that a server made and nobody holds (one a killed server left). */
  async sweep(paths: readonly string[]): Promise<void> {
    for (const path of paths) {
      if (this.#held.has(path)) continue;
      await this.#queue.run(path, async () => {
        const file = await this.#open(path);
        try {
          if (await file.tryLock(true)) await removeIfOurs(file, path);
        } finally {
          file.close();
        }
      });
    }
  }

  async #releaseAll(paths: readonly string[]): Promise<void> {
    for (const path of paths) await this.#queue.run(path, () => this.#release(path));
  }

  async #hold(path: string): Promise<void> {
    let held = this.#held.get(path);
    if (!held) {
      const file = await this.#open(path);
      const deadline = performance.now() + SHARED_WAIT_MS;
      while (!await file.tryLock(false)) {
        if (performance.now() > deadline) {
          file.close();
          throw new Error(`the placeholder lock of "${path}" stays taken`);
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      held = { count: 0, file };
      this.#held.set(path, held);
    }
    held.count++;
    try {
      // Checked at every hold: the user may have removed it since (the mount then needs it again).
      const content = placeholderFile(path);
      if (content === undefined) await Deno.mkdir(path);
      else await Deno.writeTextFile(path, content, { createNew: true });
      const info = await Deno.lstat(path);
      await record(held.file, `${info.dev}:${info.ino}`);
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) {
        await this.#release(path);
        throw error;
      }
    }
  }

  async #release(path: string): Promise<void> {
    const held = this.#held.get(path);
    if (!held || --held.count > 0) return;
    this.#held.delete(path);
    try {
      await held.file.unlock();
      if (await held.file.tryLock(true)) await removeIfOurs(held.file, path);
    } finally {
      held.file.close();
    }
  }

  async #open(path: string): Promise<Deno.FsFile> {
    this.#dir ??= prepareLockDir(this.#lockDir, "Cannot sandbox the job");
    this.#dir.catch(() => this.#dir = undefined);
    const dir = await this.#dir;
    const name = `sandbox-${(await sha256Hex(encoder.encode(path))).slice(0, 32)}.lock`;
    return await openLockFile(dir, name, "Cannot sandbox the job");
  }
}

/** Under the exclusive lock: removes `path` when it is still the placeholder recorded, and forgets it. */
async function removeIfOurs(file: Deno.FsFile, path: string): Promise<void> {
  const recorded = await readRecord(file);
  if (!recorded) return;
  const info = await Deno.lstat(path).catch(() => null);
  const content = placeholderFile(path);
  const unchanged = content === undefined
    ? info?.isDirectory
    : info?.isFile && await Deno.readTextFile(path).then((text) => text === content, () => false);
  if (info && unchanged && `${info.dev}:${info.ino}` === recorded) {
    // Not recursive: a folder someone put something in is theirs now.
    await Deno.remove(path).catch(() => {});
  }
  await record(file, "");
}

async function record(file: Deno.FsFile, text: string): Promise<void> {
  await file.truncate(0);
  await file.seek(0, Deno.SeekMode.Start);
  const bytes = encoder.encode(text);
  let written = 0;
  while (written < bytes.length) written += await file.write(bytes.subarray(written));
}

async function readRecord(file: Deno.FsFile): Promise<string> {
  await file.seek(0, Deno.SeekMode.Start);
  const buffer = new Uint8Array(128);
  const read = await file.read(buffer);
  return read ? decoder.decode(buffer.subarray(0, read)).trim() : "";
}
