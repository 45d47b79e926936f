/**
 * The one way the servers change a file (edit, notes, sql), with one set of rules:
 * - only under the file's lock (file_lock.ts: keyed by path and by device + inode);
 * - a protected name (lib/sandbox/protected.ts: git hooks and config, editor and agent settings) of any of
 *   the writer's roots is refused (`permission_denied`), as named, where it really lands, and through another
 *   hard-link name; so is what git obeys wherever it finds it (lib/sandbox/write_guard.ts);
 * - a read-only file is refused (`permission_denied`), never replaced through a rename or deleted;
 * - so is a file whose setuid or setgid bit the write would clear for good (set_id_bits.ts);
 * - a new file, or one with a single name whose owner, group and mode a replacement can keep, is replaced
 *   atomically (temp file + rename, atomic_write.ts);
 * - otherwise it is written in place, journaled (in_place_write.ts): hard links, extended attributes and
 *   ACLs stay, and a killed write is completed by the next one;
 * - temp files that killed writers left in the folder are removed (temp_files.ts), and so are journals whose
 *   file is gone (journal_sweep.ts).
 * @module
 */
import { dirname } from "node:path";
import { ToolError } from "../mcp/errors.ts";
import { platform } from "../platform/mod.ts";
import { atomicWrite } from "./atomic_write.ts";
import type { FileLocks } from "./file_lock.ts";
import { writeInPlace } from "./in_place_write.ts";
import { journalKey, lockTarget } from "./lock_keys.ts";
import { lockFolderEntries } from "./lock_dir.ts";
import { removeDeadWritersTemps, removeStaleTemps } from "./temp_files.ts";
import { refuseLosingSetIdBits } from "./set_id_bits.ts";
import { sweepJournals } from "./journal_sweep.ts";
import { refuseProtectedWrite } from "../sandbox/write_guard.ts";

/** How a file was written. */
export type WriteMethod = "rename" | "in_place";

/** Who writes, and how the file is named in errors. */
export interface WriteRules {
  /** Their lock on the file must be held (`locks.run`). */
  locks: FileLocks;
  /** The failed action and the path as shown, e.g. `Cannot edit "src/a.ts"`. */
  action: string;
  /** The path as shown, for the `chmod u+w` hint. */
  display: string;
  /**
   * The folders protected names are judged in (absolute, real): the workspace roots and allowed folders,
   * or the notes repository. Required, so no writer forgets the sandbox's one list.
   */
  roots: readonly string[];
}

/** How {@link writeFile} writes. */
export interface WriteFileOptions extends WriteRules {
  /** Permission bits of a new file (default 0o666 minus umask); an existing file keeps its own. */
  mode?: number;
  /** Modification time to give the file. */
  mtime?: Date;
  /** Runs right before the file is replaced or touched; throwing cancels the write (a last re-check). */
  beforeReplace?: () => Promise<void>;
}

/**
 * Writes `data` to `path` (its folder must exist) by the rules above and says how. Rule violations throw a
 * ToolError; OS failures throw the OS's error for the caller to word.
 */
export async function writeFile(
  path: string,
  data: Uint8Array,
  options: WriteFileOptions,
): Promise<WriteMethod> {
  const { locks, action } = options;
  locks.assertHeld(path);
  await refuseProtectedWrite(path, options);
  const dir = await locks.lockDir(action);
  const info = await statOrNull(path);
  if (info?.isDirectory) throw new ToolError("invalid_argument", `${action}: it is a folder`);
  if (info) {
    refuseReadOnly(info, options);
    await refuseLosingSetIdBits(info, dir.path, options);
  }
  // Temp files of killed writers: those the lock folder knows of at every write, and those it forgot (a
  // reboot empties it) at this server's first write in the folder.
  const entries = await lockFolderEntries(dir);
  await removeDeadWritersTemps(entries);
  if (locks.firstVisit(dirname(path))) await removeStaleTemps(dirname(path), dir);
  // Journals of killed writers whose file is gone since: no run on a file meets them any more.
  await sweepJournals(locks, { wait: false, entries });
  if (!info || info.nlink === null || info.nlink <= 1) {
    try {
      const replaced = await atomicWrite(path, data, {
        dir,
        previous: info,
        mode: info ? undefined : options.mode,
        mtime: options.mtime,
        beforeRename: options.beforeReplace,
      });
      if (replaced) return "rename";
    } catch (error) {
      // A folder that refuses new files: the existing file itself may still be writable.
      if (!(error instanceof Deno.errors.PermissionDenied) || !info) throw error;
    }
  }
  await writeInPlace(path, data, {
    dir,
    key: journalKey(await lockTarget(path)),
    info: info!,
    mtime: options.mtime,
    beforeWrite: options.beforeReplace,
    action,
  });
  return "in_place";
}

/** Deletes the file at `path` under its held lock; a read-only file is refused like a write. */
export async function removeFile(path: string, rules: WriteRules): Promise<void> {
  rules.locks.assertHeld(path);
  // Deleting a symlink changes the link, not where it leads.
  await refuseProtectedWrite(path, rules, { followLast: false });
  const info = await Deno.lstat(path);
  if (info.isFile) refuseReadOnly(info, rules);
  await Deno.remove(path);
}

/**
 * Throws unless the existing file may be written: read-only by its mode bits, a setuid/setgid bit the write
 * would clear for good, or the OS refuses to open it.
 */
export async function checkWritable(
  path: string,
  info: Deno.FileInfo,
  rules: Pick<WriteRules, "action" | "display" | "locks">,
): Promise<void> {
  refuseReadOnly(info, rules);
  await refuseLosingSetIdBits(info, (await rules.locks.lockDir(rules.action)).path, rules);
  (await Deno.open(path, { write: true })).close();
}

/**
 * A rename would replace even a read-only file; respect the file's own permission like an editor does, by
 * its mode bits too, since root may open anything for writing.
 */
function refuseReadOnly(info: Deno.FileInfo, rules: Pick<WriteRules, "action" | "display">): void {
  if (!platform.isReadOnly(info)) return;
  const mode = (info.mode! & 0o777).toString(8).padStart(3, "0");
  throw new ToolError(
    "permission_denied",
    `${rules.action}: the file is read-only (mode ${mode}); make it writable first (chmod u+w "${rules.display}") and retry`,
  );
}

async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}
