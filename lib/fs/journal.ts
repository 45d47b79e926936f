/**
 * The journal of an in-place write: the file's old and new bytes, saved in full and flushed in the private
 * lock folder (the last of the run's folders: lock_dir.ts) before the file is touched. A writer killed
 * mid-write leaves it behind; the next locked run on that file (see file_lock.ts) reads it and completes the
 * write. Both contents are kept so a journal can only ever finish the write it describes: a file that is
 * neither a mix of exactly those bytes is left alone. The header names the path written and the key the
 * journal is stored under, so a journal whose file is gone can be found and removed (journal_sweep.ts).
 * @module
 */
import { join } from "node:path";
import { sha256Hex } from "./sha256.ts";
import type { LockDir } from "./lock_dir.ts";

/** What a journal holds. */
export interface Journal {
  /** The path written (for messages; the file is found by its identity). */
  path: string;
  /** Permission bits to put back (a write by a non-root user clears setuid/setgid), or null. */
  mode: number | null;
  /** Modification time the write gives the file (ms), or null. */
  mtime: number | null;
  old: Uint8Array;
  next: Uint8Array;
}

/** Where the complete journal of the file keyed `key` lives in the lock folder `folder`. */
export async function journalPath(folder: string, key: string): Promise<string> {
  return join(folder, `j-${(await sha256Hex(new TextEncoder().encode(key))).slice(0, 32)}.journal`);
}

/**
 * Saves `journal` durably for the file keyed `key` (call under that file's lock) and returns its path. It is
 * written under a `.part` name and renamed when complete, so a journal that exists is a whole one.
 */
export async function saveJournal(dir: LockDir, key: string, journal: Journal): Promise<string> {
  const path = await journalPath(dir.path, key);
  const part = `${path}.part`;
  await Deno.remove(part).catch(() => {}); // A killed writer's leftover: we hold the lock, it is dead.
  const header = new TextEncoder().encode(
    JSON.stringify({
      v: 1,
      path: journal.path,
      key,
      mode: journal.mode,
      mtime: journal.mtime,
      old: journal.old.length,
      next: journal.next.length,
    }) + "\n",
  );
  const file = await Deno.open(part, { write: true, createNew: true, mode: 0o600 });
  try {
    for (const chunk of [header, journal.old, journal.next]) await writeAll(file, chunk);
    await file.syncData();
  } finally {
    file.close();
  }
  await Deno.rename(part, path);
  await syncFolder(dir.path);
  return path;
}

/** Reads the journal at `path`: null when there is none, "broken" when it cannot be parsed. */
export async function readJournal(path: string): Promise<Journal | "broken" | null> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  const end = bytes.indexOf(0x0a);
  try {
    const head = JSON.parse(new TextDecoder().decode(bytes.subarray(0, end)));
    const start = end + 1;
    if (head.v !== 1 || start + head.old + head.next !== bytes.length) return "broken";
    return {
      path: String(head.path),
      mode: typeof head.mode === "number" ? head.mode : null,
      mtime: typeof head.mtime === "number" ? head.mtime : null,
      old: bytes.subarray(start, start + head.old),
      next: bytes.subarray(start + head.old),
    };
  } catch {
    return "broken";
  }
}

/** What a journal file's header says: the path written, and its key (null in journals of older versions). */
export interface JournalHead {
  path: string;
  key: string | null;
}

/** The header of the journal file `file` (complete or `.part`), or null when it cannot be read. */
export async function readJournalHead(file: string): Promise<JournalHead | null> {
  try {
    using handle = await Deno.open(file, { read: true });
    const head = new Uint8Array(64 * 1024);
    let length = 0;
    while (length < head.length) {
      const read = await handle.read(head.subarray(length));
      if (read === null) break;
      length += read;
    }
    const end = head.subarray(0, length).indexOf(0x0a);
    if (end < 0) return null;
    const parsed = JSON.parse(new TextDecoder().decode(head.subarray(0, end)));
    if (parsed?.v !== 1 || typeof parsed.path !== "string") return null;
    return { path: parsed.path, key: typeof parsed.key === "string" ? parsed.key : null };
  } catch {
    return null;
  }
}

/**
 * What the file holds now, given an in-place write from `old` to `next` that writes `next` from offset 0 and
 * truncates last: `next` or `old` (nothing to do), "torn" (`next`'s first k bytes, then `old` from k on: the
 * write was cut off, complete it) or "other" (someone else changed it since, or a new file reused the inode).
 */
export function classify(
  current: Uint8Array,
  old: Uint8Array,
  next: Uint8Array,
): "next" | "old" | "torn" | "other" {
  if (same(current, next)) return "next";
  if (same(current, old)) return "old";
  const prefix = commonPrefix(current, next);
  if (current.length === old.length) {
    // current = next[0, k) + old[k, end) for some k: k must be at least where old's tail starts, at most the
    // shared prefix with next.
    const tailStart = old.length - commonSuffix(current, old);
    return tailStart <= prefix && tailStart <= next.length ? "torn" : "other";
  }
  // Past the old end the file grows with next's bytes alone.
  return current.length > old.length && current.length < next.length && prefix === current.length
    ? "torn"
    : "other";
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && commonPrefix(a, b) === a.length;
}

function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a[i] === b[i]) i++;
  return i;
}

function commonSuffix(a: Uint8Array, b: Uint8Array): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
}

/** Writes every byte of `data` at the file's position. */
export async function writeAll(file: Deno.FsFile, data: Uint8Array): Promise<void> {
  let written = 0;
  while (written < data.length) written += await file.write(data.subarray(written));
}

/** Makes a rename durable; best effort, since not every OS lets a folder be opened and flushed. */
export async function syncFolder(folder: string): Promise<void> {
  try {
    using dir = await Deno.open(folder, { read: true });
    await dir.syncData();
  } catch {
    // Durability of the folder entry is a bonus; the write itself already succeeded.
  }
}
