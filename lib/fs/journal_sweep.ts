/**
 * Journals whose file is gone. A journal is stored under its file's key (device + inode: lock_keys.ts) and
 * completed by the next locked run on that file; once every name of the file is deleted, or its name holds
 * another file, no run meets it again and it would stay in the lock folder for good (twice the file's size).
 * So a sweep visits every journal there, at a server's start and at each write:
 * - one whose file is at the path it names, or at another name in that folder (a hard link, a rename), is
 *   left to a locked run on that file, which completes it; the start's sweep takes that lock;
 * - one whose file is in neither place is removed under its key's lock (every key's, for a journal of an
 *   older version that does not name its key), so never while its writer lives, and logged.
 * No file is ever written but one with the journal's key. A `.part` (a journal being saved) is removed under
 * its key's lock: its writer is dead.
 * @module
 */
import { basename, dirname, join } from "node:path";
import { log } from "../log.ts";
import type { FileLocks } from "./file_lock.ts";
import { type JournalHead, journalPath, readJournalHead } from "./journal.ts";
import { withKeyLock } from "./key_lock.ts";
import { lockFolderEntries, type LockFolderEntry } from "./lock_dir.ts";
import { identityKey, journalKey, lockKeyOfJournal, lockTarget } from "./lock_keys.ts";

const JOURNAL = /^j-[0-9a-f]{32}\.journal(\.part)?$/;
/** A write's sweep looks through at most this many names of a folder for another name of a file. */
const SCAN_LIMIT = 10_000;
const ACTION = "Cannot complete an interrupted write";

/** How a sweep goes. */
export interface SweepOptions {
  /**
   * At a server's start: wait for each journal's lock, and complete the writes whose file is found. At a
   * write (which holds its own locks): only remove, and only under locks free at once.
   */
  wait: boolean;
  /** The lock folders' names, when the caller listed them already; else they are read. */
  entries?: readonly LockFolderEntry[];
}

/** Visits every journal in the lock folders of `locks`; never throws (a failure is logged). */
export async function sweepJournals(locks: FileLocks, options: SweepOptions): Promise<void> {
  const report = options.wait ? log.error : log.debug;
  try {
    const entries = options.entries ?? await lockFolderEntries(await locks.lockDir(ACTION));
    for (const { folder, name } of entries) {
      if (!JOURNAL.test(name)) continue;
      await visit(locks, join(folder, name), options).catch((error) => report(`${ACTION} (${name})`, error));
    }
  } catch (error) {
    report(`${ACTION}s: cannot look through the lock folder`, error);
  }
}

async function visit(locks: FileLocks, file: string, options: SweepOptions): Promise<void> {
  const part = file.endsWith(".part");
  const head = await readJournalHead(file);
  // A complete journal that cannot be read is not provably anyone's; one naming a key it is not stored
  // under is not ours to judge.
  if ((head === null && !part) || (head?.key && !await storedUnder(file, head.key))) return;
  const info = await Deno.lstat(file).catch(() => null);
  if (info === null) return; // Its writer finished meanwhile.
  if (!part) {
    const memo = `${file}\n${info.mtime?.getTime()}`;
    if (!options.wait && locks.keptJournals.has(memo)) return;
    const found = await findFile(file, head!, options.wait ? Infinity : SCAN_LIMIT);
    if (found !== null) {
      if (options.wait && found !== undefined) {
        await locks.run(found, () => Promise.resolve(), { action: `${ACTION} of "${found}"` });
      } else if (found === undefined || found !== head!.path) locks.keptJournals.add(memo);
      return;
    }
  }
  const key = head?.key ? lockKeyOfJournal(head.key) : null;
  await withKeyLock(locks, key, async () => {
    // As it is now that no writer of it lives: a new write may have left a new journal under this name.
    const now = part ? head : await readJournalHead(file);
    if (!part && (now === null || await findFile(file, now, Infinity) !== null)) return;
    try {
      await Deno.remove(file);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    log.info(
      part
        ? `removed "${file}", the unfinished journal of a killed writer`
        : `dropped the journal of an interrupted write of "${
          now!.path
        }": the file is gone (no name in that ` +
          `folder is the file written any more)`,
    );
  }, { action: ACTION, wait: options.wait });
}

/**
 * Where the file a journal describes is: the path it names, another name in that folder, null when in
 * neither, or undefined when the folder has more than `limit` files.
 */
async function findFile(file: string, head: JournalHead, limit: number): Promise<string | null | undefined> {
  const name = basename(file).replace(/\.part$/, "");
  const matches = async (key: string) =>
    head.key !== null ? key === head.key : basename(await journalPath(".", key)) === name;
  if (await matches(journalKey(await lockTarget(head.path)))) return head.path;
  const folder = dirname(head.path);
  let seen = 0;
  try {
    for await (const entry of Deno.readDir(folder)) {
      if (!entry.isFile) continue;
      if (++seen > limit) return undefined;
      const path = join(folder, entry.name);
      const identity = await Deno.lstat(path).then(identityKey, () => null);
      if (identity !== null && await matches(identity)) return path;
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound) && !(error instanceof Deno.errors.NotADirectory)) {
      throw error;
    }
  }
  return null;
}

/** Whether `file` is the journal name of `key`. */
async function storedUnder(file: string, key: string): Promise<boolean> {
  return basename(await journalPath(".", key)) === basename(file).replace(/\.part$/, "");
}
