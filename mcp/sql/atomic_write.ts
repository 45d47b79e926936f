/**
 * Atomic text writes: a temp file in the same folder, then a rename, so a reader sees the old or the new
 * content and never half of it. (A shared `lib/fs/atomic_write.ts` is coming; this stays until then.)
 * @module
 */
import { basename, dirname, join } from "node:path";
import { ToolError } from "../../lib/mcp/errors.ts";

/**
 * Replaces `file` with `text`, keeping its permission bits. When `expected` is given and the file no
 * longer holds it (someone edited it meanwhile), nothing is written and a `conflict` error is thrown.
 */
export async function writeTextAtomic(
  file: string,
  text: string,
  options: { expected?: string; display?: string } = {},
): Promise<void> {
  const shown = options.display ?? file;
  const info = await Deno.stat(file).catch(() => null);
  if (
    options.expected !== undefined && (await Deno.readTextFile(file).catch(() => null)) !== options.expected
  ) {
    throw new ToolError("conflict", `Cannot write "${shown}": it changed on disk meanwhile; run again`);
  }
  const temp = join(dirname(file), `.${basename(file)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    await Deno.writeTextFile(temp, text, { createNew: true, mode: info?.mode ?? undefined });
    if (typeof info?.mode === "number") await Deno.chmod(temp, info.mode & 0o7777).catch(() => {});
    await Deno.rename(temp, file);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    if (error instanceof ToolError) throw error;
    throw new ToolError(
      error instanceof Deno.errors.PermissionDenied ? "permission_denied" : "internal",
      `Cannot write "${shown}": ${error instanceof Error ? error.message : error}`,
    );
  }
}
