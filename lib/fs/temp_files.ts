/**
 * The temp files of rename writes, `.<name>.cmcp-<token>.tmp` next to the target (a rename needs the same
 * file system). For as long as its temp file exists, a writer holds an OS lock on `w-<token>.lock` in the
 * private lock folder (the last of the run's folders: lock_dir.ts), which names the temp file. So a later
 * write can tell a killed writer's leftover (the lock is free, or its file is gone after a reboot) from a
 * live writer's temp file (the lock is held), and removes only the former.
 * @module
 */
import { basename, dirname, join } from "node:path";
import { currentFolders, type LockDir, type LockFolderEntry, openLockFile } from "./lock_dir.ts";

const TEMP_NAME = /^\..*\.cmcp-([0-9a-f]{12})\.tmp$/;
const WRITER_LOCK = /^w-([0-9a-f]{12})\.lock$/;

/** A temp file being written, and the writer lock that marks it as alive. */
export interface TempFile {
  path: string;
  file: Deno.FsFile;
  /** Call once the temp file is renamed or removed: frees the writer lock. */
  release(): Promise<void>;
}

/** Creates the temp file for `target` (`createNew`, mode `mode`) under a fresh writer lock. */
export async function createTemp(target: string, dir: LockDir, mode: number): Promise<TempFile> {
  const token = randomToken();
  const lockPath = join(dir.path, `w-${token}.lock`);
  const freshPath = join(dir.path, `w-${token}.new`);
  // Made under a name cleaners ignore, locked, then renamed: a `w-*.lock` is locked from its first moment,
  // so a cleaner never takes a live writer's lock before it does.
  const writer = await openLockFile(dir.path, `w-${token}.new`, `Cannot write "${basename(target)}"`);
  const release = async () => {
    // Before the unlock: a cleaner then finds no lock or a free one.
    for (const path of [lockPath, freshPath]) await Deno.remove(path).catch(() => {});
    writer.close();
  };
  try {
    if (!await writer.tryLock(true)) throw new Error(`the writer lock "${freshPath}" is taken`);
    const path = join(dirname(target), `.${shortened(basename(target))}.cmcp-${token}.tmp`);
    await writer.write(new TextEncoder().encode(path));
    await Deno.rename(freshPath, lockPath);
    const file = await Deno.open(path, { write: true, createNew: true, mode });
    return { path, file, release };
  } catch (error) {
    await release();
    throw error;
  }
}

/**
 * Removes the temp files of every dead writer the lock folders know of, given their entries (one listing per
 * write serves the journal sweep too: a lock folder can hold thousands of names); best effort.
 */
export async function removeDeadWritersTemps(entries: readonly LockFolderEntry[]): Promise<void> {
  try {
    for (const { folder, name } of entries) {
      const token = WRITER_LOCK.exec(name)?.[1];
      if (token) await removeIfDead(folder, token, null);
    }
  } catch {
    // The write itself does not depend on this.
  }
}

/**
 * Removes the temp files in `folder` whose writer is dead, including those whose writer lock is gone
 * (a reboot emptied the lock folder); best effort, never a live writer's.
 */
export async function removeStaleTemps(folder: string, dir: LockDir): Promise<void> {
  try {
    for await (const entry of Deno.readDir(folder)) {
      const token = TEMP_NAME.exec(entry.name)?.[1];
      if (!token || !entry.isFile) continue;
      // The folders as they are now, after the temp file was seen: its writer locked its writer lock in one
      // of them before making it (a fallback made since holds the writer locks of newer writers).
      const temp = join(folder, entry.name);
      let known = false;
      for (const locks of await currentFolders(dir)) {
        known = await removeIfDead(locks, token, temp);
        if (known) break;
      }
      if (!known) await Deno.remove(temp).catch(() => {});
    }
  } catch {
    // An unreadable folder keeps its leftovers; the write itself does not depend on this.
  }
}

/**
 * Looks for the writer lock of `token` in the lock folder `locks`: false when there is none; else removes
 * its temp file (`temp`, and the one it names) when no live process holds it, and returns true.
 */
async function removeIfDead(locks: string, token: string, temp: string | null): Promise<boolean> {
  const lockPath = join(locks, `w-${token}.lock`);
  let writer: Deno.FsFile;
  try {
    writer = await Deno.open(lockPath, { read: true, write: true });
  } catch (error) {
    // Only a writer lock that is not there says nothing of a writer; one we cannot open is left alone.
    return !(error instanceof Deno.errors.NotFound);
  }
  try {
    if (!await writer.tryLock(true)) return true;
    // Read through the locked handle: Windows locks are mandatory, another handle could not read it.
    const named = await readAll(writer);
    // The lock folder is private, but only a temp name of this very token is ever removed.
    const own = TEMP_NAME.exec(basename(named))?.[1] === token ? named : null;
    for (const path of new Set([temp, own])) if (path !== null) await Deno.remove(path).catch(() => {});
    await Deno.remove(lockPath).catch(() => {});
    return true;
  } finally {
    writer.close();
  }
}

async function readAll(file: Deno.FsFile): Promise<string> {
  const buffer = new Uint8Array(8192);
  let length = 0;
  while (length < buffer.length) {
    const read = await file.read(buffer.subarray(length)).catch(() => null);
    if (read === null) break;
    length += read;
  }
  return new TextDecoder().decode(buffer.subarray(0, length));
}

/** File names are capped at 255 bytes: leave room for the temp name's dot, token and suffix. */
function shortened(name: string, maxBytes = 200): string {
  const encoder = new TextEncoder();
  if (encoder.encode(name).length <= maxBytes) return name;
  let out = "";
  for (const char of name) {
    if (encoder.encode(out + char).length > maxBytes) break;
    out += char;
  }
  return out;
}

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
