/**
 * At a writing server's start: complete the in-place writes that killed writers left unfinished, so a torn
 * file does not wait for its next write to be whole again (every locked run on a file completes its own
 * journal too: see file_lock.ts). Journals live in the private lock folder (journal.ts).
 * @module
 */
import { join } from "node:path";
import { log } from "../log.ts";
import { FileLocks } from "./file_lock.ts";
import { journalTarget } from "./journal.ts";

const JOURNAL = /^j-[0-9a-f]{32}\.journal$/;

/**
 * Locks each file an unfinished journal names, which completes the write when the journal still describes
 * that file. Never throws: a failure is logged and left for the file's next write.
 */
export async function recoverInterruptedWrites(locks: FileLocks = new FileLocks()): Promise<void> {
  const action = "Cannot complete an interrupted write";
  try {
    const dir = await locks.lockDir(action);
    for (const folder of dir.folders) {
      for await (const entry of Deno.readDir(folder)) {
        if (!JOURNAL.test(entry.name)) continue;
        const path = await journalTarget(join(folder, entry.name));
        if (path === null) continue;
        await locks.run(path, () => Promise.resolve(), { action: `${action} of "${path}"` }).catch(
          (error) => {
            log.error(`${action} of "${path}"`, error);
          },
        );
      }
    }
  } catch (error) {
    log.debug(`${action}s at start`, error);
  }
}
