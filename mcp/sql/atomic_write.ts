/** Atomic writes of formatted SQL files, refusing a file that changed since it was read. */
import { atomicWrite } from "../../lib/fs/atomic_write.ts";
import { ToolError } from "../../lib/mcp/errors.ts";

/**
 * Replaces `file` with `text` atomically, keeping its permission bits. When `expected` is given and the file
 * no longer holds it (someone edited it meanwhile), nothing is written and a `conflict` error is thrown.
 */
export async function writeTextAtomic(
  file: string,
  text: string,
  options: { expected?: string; display?: string } = {},
): Promise<void> {
  const shown = options.display ?? file;
  if (
    options.expected !== undefined && (await Deno.readTextFile(file).catch(() => null)) !== options.expected
  ) {
    throw new ToolError("conflict", `Cannot write "${shown}": it changed on disk meanwhile; run again`);
  }
  try {
    await atomicWrite(file, new TextEncoder().encode(text));
  } catch (error) {
    throw new ToolError(
      error instanceof Deno.errors.PermissionDenied ? "permission_denied" : "internal",
      `Cannot write "${shown}": ${error instanceof Error ? error.message : error}`,
    );
  }
}
