/**
 * Writing the files of one edit_file call in order, all or nothing as far as the disk allows: each file is
 * replaced atomically on its own, and when one write fails the files written before it are put back.
 * @module
 */
import { ToolError } from "../../lib/mcp/errors.ts";
import type { WriteMethod } from "./file_access.ts";

/** How {@link writeAll} writes one file and undoes that write. */
export interface FileWriter<F> {
  write(file: F): Promise<WriteMethod>;
  /** Puts the file's original bytes back (removes a created file); throws when it cannot. */
  restore(file: F): Promise<void>;
  display(file: F): string;
}

/**
 * Writes `files` in order and returns how each was written. When a write fails, undoes the earlier ones
 * (last first, best effort) and throws that failure with a sentence saying what was put back and what not.
 */
export async function writeAll<F>(files: readonly F[], writer: FileWriter<F>): Promise<WriteMethod[]> {
  const methods: WriteMethod[] = [];
  for (const [at, file] of files.entries()) {
    try {
      methods.push(await writer.write(file));
    } catch (error) {
      if (at === 0) throw error;
      throw withRollback(error, await undo(files.slice(0, at).reverse(), writer));
    }
  }
  return methods;
}

interface Undone {
  restored: string[];
  kept: string[];
}

async function undo<F>(written: readonly F[], writer: FileWriter<F>): Promise<Undone> {
  const undone: Undone = { restored: [], kept: [] };
  for (const file of written) {
    const shown = `"${writer.display(file)}"`;
    try {
      await writer.restore(file);
      undone.restored.push(shown);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      undone.kept.push(`${shown} (${reason})`);
    }
  }
  return undone;
}

function withRollback(error: unknown, { restored, kept }: Undone): Error {
  const parts: string[] = [];
  if (restored.length) {
    parts.push(`the files written before it were put back (${restored.reverse().join(", ")})`);
  }
  if (kept.length) {
    parts.push(`could not put back, so they keep the new content: ${kept.reverse().join(", ")}`);
  }
  const note = `; ${parts.join("; ")}`;
  if (error instanceof ToolError) {
    return new ToolError(error.code, error.message + note, { meta: error.meta, cause: error });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolError("internal", `${reason}${note}`, { cause: error });
}
