/**
 * Writing a file in place (its inode kept: hard links, extended attributes, owner and ACLs stay), without
 * ever leaving it truncated: the old and new bytes go to a flushed journal first (journal.ts), then the new
 * bytes overwrite the file from offset 0 and the file is cut to length last. A writer killed in between
 * leaves the journal, and the next locked run on the file completes the write ({@link completeInterrupted}).
 * Call both under the file's lock.
 * @module
 */
import { ToolError } from "../mcp/errors.ts";
import { log } from "../log.ts";
import type { LockDir } from "./lock_dir.ts";
import { classify, type Journal, journalPath, readJournal, saveJournal, writeAll } from "./journal.ts";

/** How {@link writeInPlace} writes. */
export interface InPlaceOptions {
  /** The private lock folder, where the journal goes. */
  dir: LockDir;
  /** The file's journal key (lock_keys.ts). */
  key: string;
  /** The file's stat before the write: its mode is put back if the write cleared setuid/setgid. */
  info: Deno.FileInfo;
  mtime?: Date;
  /** Runs after the old bytes are read, right before the file is touched; throwing cancels the write. */
  beforeWrite?: () => Promise<void>;
  /** The failed action, for the message when even putting the old bytes back fails. */
  action: string;
}

/** Overwrites `path` with `data` in place, journaled. */
export async function writeInPlace(path: string, data: Uint8Array, options: InPlaceOptions): Promise<void> {
  // Opened first: a file the OS will not let us write is refused before anything else happens.
  using file = await Deno.open(path, { write: true });
  const old = await Deno.readFile(path);
  await options.beforeWrite?.();
  const journal: Journal = {
    path,
    mode: options.info.mode,
    mtime: options.mtime?.getTime() ?? null,
    old,
    next: data,
  };
  const saved = await saveJournal(options.dir, options.key, journal).catch((error) => {
    throw new ToolError(
      "unavailable",
      `${options.action}: cannot save the write's journal in "${options.dir.path}" (${reasonOf(error)}); ` +
        `nothing was written; free some space there and retry`,
      { cause: error },
    );
  });
  try {
    await overwrite(file, data);
  } catch (error) {
    // A full disk while the file grows, an I/O error: put the old bytes back over the same blocks.
    try {
      await overwrite(file, old);
    } catch (again) {
      const kept = `${saved}.failed`;
      await Deno.rename(saved, kept).catch(() => {});
      throw new ToolError(
        "internal",
        `${options.action}: the write failed (${
          reasonOf(error)
        }) and putting the old content back failed too ` +
          `(${reasonOf(again)}); the file may be incomplete: its old and new content are kept in "${kept}"`,
        { cause: error },
      );
    }
    await Deno.remove(saved).catch(() => {});
    throw error;
  }
  await keepMetadata(path, journal);
  await Deno.remove(saved);
}

/**
 * Completes an in-place write of the file keyed `key` (at `path`) that a killed writer left unfinished, if
 * any; a journal that does not describe the file as it is now is dropped and the file left alone.
 */
export async function completeInterrupted(
  dir: LockDir,
  key: string,
  path: string,
  action: string,
): Promise<void> {
  // Each lock folder of the run: a writer killed before a fallback folder existed left it in the primary.
  for (const folder of dir.folders) await completeFrom(await journalPath(folder, key), path, action);
}

async function completeFrom(file: string, path: string, action: string): Promise<void> {
  const journal = await readJournal(file);
  if (journal === null) return;
  if (journal !== "broken") {
    const current = await Deno.readFile(path).catch(() => null);
    const state = current === null ? "other" : classify(current, journal.old, journal.next);
    if (state === "torn" || state === "next") {
      try {
        if (state === "torn") {
          using file = await Deno.open(path, { write: true });
          await overwrite(file, journal.next);
        }
        await keepMetadata(path, journal);
      } catch (error) {
        throw new ToolError(
          "unavailable",
          `${action}: an earlier write of it was interrupted and cannot be completed now (${
            reasonOf(error)
          }); ` +
            `free some space or fix the cause and retry`,
          { cause: error },
        );
      }
      if (state === "torn") {
        log.info(`completed an interrupted in-place write of "${path}" (its writer was killed mid-write)`);
      }
    } else if (state === "other") {
      log.info(`dropped the journal of an interrupted write of "${journal.path}": the file changed since`);
    }
  }
  await Deno.remove(file);
}

/** Writes `data` over the file from offset 0, cuts it to length, and flushes it. */
async function overwrite(file: Deno.FsFile, data: Uint8Array): Promise<void> {
  await file.seek(0, Deno.SeekMode.Start);
  await writeAll(file, data);
  await file.truncate(data.length);
  await file.syncData();
}

/**
 * Puts back the setuid/setgid bits a write by a non-root owner cleared (a write whose bits could not be set
 * again was refused before it began: set_id_bits.ts), and sets the mtime.
 */
async function keepMetadata(path: string, journal: Journal): Promise<void> {
  if (journal.mode !== null) {
    const mode = journal.mode & 0o7777;
    const now = (await Deno.stat(path)).mode;
    if (now !== null && (now & 0o7777) !== mode) {
      // The content is written and matters more; a bit that still will not come back is at least reported.
      await Deno.chmod(path, mode).catch(() => {});
      const after = (await Deno.stat(path)).mode;
      if (after !== null && (after & 0o7777) !== mode) {
        log.error(`"${path}" was written in place but its mode is ${octal(after)}, not ${octal(mode)}`);
      }
    }
  }
  if (journal.mtime !== null) await Deno.utime(path, new Date(journal.mtime), new Date(journal.mtime));
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, "0");
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
