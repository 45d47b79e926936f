/**
 * Saving formatted SQL over its file through the toolkit's one write path (lib/fs/file_write.ts: read-only
 * refused, hard links, owner and mode kept), refusing a file that changed since it was read.
 * @module
 */
import { writeFile } from "../../lib/fs/file_write.ts";
import type { FileLocks } from "../../lib/fs/file_lock.ts";
import { ToolError } from "../../lib/mcp/errors.ts";

const BOM = [0xef, 0xbb, 0xbf];

/** How {@link saveFormatted} checks and locks. */
export interface SaveOptions {
  /** The bytes the text was made from: a file that no longer holds exactly them is not written. */
  expected?: Uint8Array;
  /** The path as shown in errors. */
  display?: string;
  /** Held around check → write, so another server's write cannot slip in between. */
  locks: FileLocks;
  /** The workspace roots and allowed folders: their protected names are not written. */
  roots: readonly string[];
}

/**
 * Replaces `file` with `text`, keeping a leading UTF-8 BOM of `expected`. When `expected` is given and the
 * file no longer holds it (someone edited it meanwhile), nothing is written and a `conflict` error is thrown.
 */
export async function saveFormatted(file: string, text: string, options: SaveOptions): Promise<void> {
  const shown = options.display ?? file;
  const action = `Cannot write "${shown}"`;
  const { expected } = options;
  const encoded = new TextEncoder().encode(text);
  const data = expected && startsWithBom(expected) && !startsWithBom(encoded)
    ? new Uint8Array([...BOM, ...encoded])
    : encoded;
  const check = async () => {
    if (expected !== undefined && !sameBytes(await Deno.readFile(file).catch(() => null), expected)) {
      throw new ToolError("conflict", `${action}: it changed on disk meanwhile; run again`);
    }
  };
  await options.locks.run(file, async () => {
    await check();
    try {
      await writeFile(file, data, {
        locks: options.locks,
        action,
        display: shown,
        roots: options.roots,
        beforeReplace: check,
      });
    } catch (error) {
      if (error instanceof ToolError) throw error;
      throw new ToolError(
        error instanceof Deno.errors.PermissionDenied ? "permission_denied" : "internal",
        `${action}: ${error instanceof Error ? error.message : error}`,
      );
    }
  }, { action });
}

function startsWithBom(bytes: Uint8Array): boolean {
  return BOM.every((byte, i) => bytes[i] === byte);
}

function sameBytes(a: Uint8Array | null, b: Uint8Array): boolean {
  return a !== null && a.length === b.length && a.every((byte, i) => byte === b[i]);
}
