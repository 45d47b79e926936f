/**
 * At a writing server's start: complete the in-place writes that killed writers left unfinished, so a torn
 * file does not wait for its next write to be whole again (every locked run on a file completes its own
 * journal too: see file_lock.ts), and remove the journals whose file is gone (journal_sweep.ts).
 * @module
 */
import { FileLocks } from "./file_lock.ts";
import { sweepJournals } from "./journal_sweep.ts";

/**
 * Visits every journal in the lock folders: locks the file each one describes, which completes the write
 * when the journal still describes it, and removes those whose file is gone. Never throws: a failure is
 * logged and left for the file's next write.
 */
export async function recoverInterruptedWrites(locks: FileLocks = new FileLocks()): Promise<void> {
  await sweepJournals(locks, { wait: true });
}
