/**
 * Placeholders for protected names that do not exist (`.vscode`, `.mcp.json`, `.git/hooks`…): a mount needs
 * something to mount on, and a missing name must stay uncreatable while a job runs. The placeholder is made
 * in the user's workspace while some job needs it, then removed. It is an empty folder (git ignores empty
 * ones: no `git add -A` picks it up; rmdir never removes content), except inside `.git` where git reads the
 * name as a file (see {@link placeholderFile}).
 *
 * Removal must not pull a mount from under another job: removing a mount point on the host detaches it in
 * every other mount namespace, which would let that job create the name after all. So each writable folder
 * has two lock files in the per-user lock folder: `use`, locked shared by every server while any of its jobs
 * there runs, and `record`, locked exclusively for a moment to make placeholders and note each one's device
 * and inode in it. Only a server that gets `use` exclusively (nobody else's job runs there) removes them, and
 * only those still as recorded. A killed server's locks end with it; its placeholders are removed by the next
 * server that releases or {@link Placeholders.sweep}s the folder. The files stay open while the server
 * runs (a job costs a few lock calls, not a few opens); a server closing removes them when nobody else uses
 * the folder and nothing is recorded, so they do not pile up, one pair per workspace ever opened, in the
 * folder every write's cleanup lists. A lock on a removed file guards nothing, so whoever takes `use`
 * checks that both files are still the ones at their paths, and opens them again when not.
 * @module
 */
import { sha256Hex } from "../fs/sha256.ts";
import {
  appendRecord,
  exists,
  makeMissing,
  readRecord,
  removeUnchanged,
  waitLock,
} from "./placeholder_files.ts";

export { placeholderFile } from "./placeholder_files.ts";
import { isStillThere, type LockDir, openLockFile, prepareLockDir } from "../fs/lock_dir.ts";
import { join } from "node:path";
import { KeyedLock } from "../sync/keyed_lock.ts";

const encoder = new TextEncoder();
/**
 * How long placeholders stay after the last job using them ended: an agent runs commands in bursts, and the
 * next job then costs no lock call at all.
 */
const LINGER_MS = 2000;

interface Group {
  /** The lock folder and the files' common name (`sandbox-<hash>`). */
  folder: string;
  name: string;
  use: Deno.FsFile;
  record: Deno.FsFile;
  /** Jobs of this server holding the folder's placeholders. */
  count: number;
  /** The release waiting out {@link LINGER_MS} after the last job; `use` is still held meanwhile. */
  linger?: ReturnType<typeof setTimeout>;
}

/** This process's placeholders, grouped by the writable folder they lie in. */
export class Placeholders {
  #lockDir: string | undefined;
  #dir: Promise<LockDir> | undefined;
  #groups = new Map<string, Group>();
  #queue = new KeyedLock();
  #lingerMs: number;

  /** `lockDir`: where the lock files go (default: the per-user lock folder); `lingerMs` (tests). */
  constructor(options: { lockDir?: string; lingerMs?: number } = {}) {
    this.#lockDir = options.lockDir;
    this.#lingerMs = options.lingerMs ?? LINGER_MS;
  }

  /**
   * Makes each of `paths` (in the writable folder `top`) exist until the returned release is called. Throws
   * when one cannot be made: the job must then not start.
   */
  async hold(top: string, paths: readonly string[]): Promise<() => Promise<void>> {
    await this.#queue.run(top, () => this.#hold(top, paths));
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await this.#queue.run(top, () => this.#leave(top));
    };
  }

  /** Removes placeholders a killed server left in `top`, when no server's job runs there. */
  async sweep(top: string): Promise<void> {
    await this.#queue.run(top, async () => {
      const group = await this.#group(top);
      if (group.count === 0 && await this.#lockUse(group, true, false)) await this.#removeRecorded(group);
    });
  }

  /**
   * Removes the lock files of folders no server uses now, with the placeholders still recorded in them:
   * those of killed servers (whose workspace may be gone: nobody would sweep it again). With `use` free no
   * job runs in that folder, as in {@link sweep}. Returns how many pairs went.
   */
  async sweepLockFiles(): Promise<number> {
    this.#dir ??= prepareLockDir(this.#lockDir, "Cannot sandbox the job");
    const folder = (await this.#dir).path;
    const own = new Set([...this.#groups.values()].map((group) => group.name));
    let removed = 0;
    for await (const entry of Deno.readDir(folder)) {
      const name = /^(sandbox-[0-9a-f]{32})\.use$/.exec(entry.name)?.[1];
      if (!name || !entry.isFile || own.has(name)) continue;
      // One that cannot be opened (not private: someone else's doing) is left for the user to look at.
      const files = await openGroupFiles(folder, name).catch(() => undefined);
      if (!files) continue;
      const group: Group = { folder, name, ...files, count: 0 };
      try {
        if (await this.#removeFiles(group, { sweep: true })) removed++;
      } finally {
        group.use.close();
        group.record.close();
      }
    }
    return removed;
  }

  /** Removes what lingers and closes the lock files (their locks go with them); call once no job runs. */
  async close(): Promise<void> {
    for (const [top, group] of this.#groups) {
      clearTimeout(group.linger);
      group.linger = undefined;
      if (group.count > 0) {
        group.count = 1;
        await this.#queue.run(top, () => this.#release(top)).catch(() => {});
      }
      await this.#queue.run(top, () => this.#removeFiles(group)).catch(() => {});
      group.use.close();
      group.record.close();
    }
    this.#groups.clear();
  }

  /**
   * Removes the group's lock files when no other server uses the folder (`use` free) and nothing is
   * recorded (or, sweeping, after removing what is); both under the exclusive locks, so whoever opened them
   * before checks and opens them anew.
   */
  async #removeFiles(group: Group, options: { sweep?: boolean } = {}): Promise<boolean> {
    if (!await this.#lockUse(group, true, false)) return false;
    try {
      if (!await group.record.tryLock(true)) return false;
      try {
        const lines = await readRecord(group.record);
        if (lines.length > 0 && !options.sweep) return false;
        removeUnchanged(lines);
        await Deno.remove(join(group.folder, `${group.name}.record`));
        await Deno.remove(join(group.folder, `${group.name}.use`));
        return true;
      } finally {
        await group.record.unlock();
      }
    } finally {
      await group.use.unlock();
    }
  }

  /**
   * Locks `use` (shared or exclusive; waiting, or trying once) on the files that are at their paths now:
   * another server may have removed them (see {@link #removeFiles}) while ours were open but not locked.
   */
  async #lockUse(group: Group, exclusive: boolean, wait: boolean): Promise<boolean> {
    for (;;) {
      if (wait) await waitLock(group.use, exclusive, group.folder);
      else if (!await group.use.tryLock(exclusive)) return false;
      const use = join(group.folder, `${group.name}.use`);
      const record = join(group.folder, `${group.name}.record`);
      if (await isStillThere(group.use, use) && await isStillThere(group.record, record)) return true;
      await group.use.unlock();
      group.use.close();
      group.record.close();
      const files = await openGroupFiles(group.folder, group.name);
      group.use = files.use;
      group.record = files.record;
    }
  }

  async #hold(top: string, paths: readonly string[]): Promise<void> {
    const group = await this.#group(top);
    if (group.linger !== undefined) {
      // The last job's placeholders are still held (its count still stands): this job takes them over.
      clearTimeout(group.linger);
      group.linger = undefined;
    } else {
      if (group.count === 0) await this.#lockUse(group, false, true);
      group.count++;
    }
    try {
      // Under the shared lock nobody removes a placeholder: one that exists now stays.
      if (paths.every(exists)) return;
      await waitLock(group.record, true, top);
      try {
        const made = makeMissing(paths);
        if (made.length) await appendRecord(group.record, made);
      } finally {
        await group.record.unlock();
      }
    } catch (error) {
      await this.#release(top);
      throw error;
    }
  }

  /** A job is done with the folder: the last one out leaves the placeholders for {@link LINGER_MS}. */
  #leave(top: string): Promise<void> {
    const group = this.#groups.get(top);
    if (!group) return Promise.resolve();
    if (group.count > 1) {
      group.count--;
      return Promise.resolve();
    }
    group.linger = setTimeout(() => {
      group.linger = undefined;
      this.#queue.run(top, () => this.#release(top)).catch(() => {});
    }, this.#lingerMs);
    Deno.unrefTimer(group.linger);
    return Promise.resolve();
  }

  async #release(top: string): Promise<void> {
    const group = this.#groups.get(top);
    if (!group || --group.count > 0) return;
    await group.use.unlock();
    if (await this.#lockUse(group, true, false)) await this.#removeRecorded(group);
  }

  /** With `use` held exclusively: removes what is recorded and still as made, then releases `use`. */
  async #removeRecorded(group: Group): Promise<void> {
    try {
      await waitLock(group.record, true, "the placeholder record");
      try {
        const lines = await readRecord(group.record);
        if (lines.length === 0) return;
        removeUnchanged(lines);
        await group.record.truncate(0);
      } finally {
        await group.record.unlock();
      }
    } finally {
      await group.use.unlock();
    }
  }

  async #group(top: string): Promise<Group> {
    const known = this.#groups.get(top);
    if (known) return known;
    this.#dir ??= prepareLockDir(this.#lockDir, "Cannot sandbox the job");
    this.#dir.catch(() => this.#dir = undefined);
    const dir = await this.#dir;
    const name = `sandbox-${(await sha256Hex(encoder.encode(top))).slice(0, 32)}`;
    const group = { folder: dir.path, name, ...await openGroupFiles(dir.path, name), count: 0 };
    this.#groups.set(top, group);
    return group;
  }
}

async function openGroupFiles(
  folder: string,
  name: string,
): Promise<{ use: Deno.FsFile; record: Deno.FsFile }> {
  const use = await openLockFile(folder, `${name}.use`, "Cannot sandbox the job");
  const record = await openLockFile(folder, `${name}.record`, "Cannot sandbox the job").catch((error) => {
    use.close();
    throw error;
  });
  return { use, record };
}
