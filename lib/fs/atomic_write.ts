/**
 * Atomic file replacement: write a temp file next to the target, flush it, then rename it over the target,
 * so readers see either the old bytes or the new ones, never a half-written file.
 * @module
 */
import { basename, dirname, join } from "node:path";

/** How {@link atomicWrite} writes. */
export interface AtomicWriteOptions {
  /** Permission bits of the result; default: the replaced file's, or 0o666 minus umask for a new file. */
  mode?: number;
  /** Modification time to give the result (the notes server stamps a note's `updated` on its file). */
  mtime?: Date;
  /**
   * Runs after the temp file is written and flushed, right before the rename; throwing cancels the write.
   * A re-check of the target here leaves the smallest window for a writer that does not take our lock.
   */
  beforeRename?: () => Promise<void>;
}

/**
 * Replaces `path` with `data` atomically (temp file in the same folder + rename). Keeps the replaced file's
 * mode (and owner when allowed) unless `mode` is given. The temp file is removed on every failure.
 */
export async function atomicWrite(
  path: string,
  data: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const previous = await statOrNull(path);
  const temp = join(dirname(path), `.${shortened(basename(path))}.${randomTag()}.tmp`);
  const mode = options.mode ?? previous?.mode ?? undefined;
  // A known final mode starts private and is set after the write, so a secret file is never briefly public.
  const file = await Deno.open(temp, {
    write: true,
    createNew: true,
    mode: mode === undefined ? 0o666 : 0o600,
  });
  try {
    try {
      await writeAll(file, data);
      await file.syncData();
    } finally {
      file.close();
    }
    if (mode !== undefined) await chmodIfSupported(temp, mode & 0o7777);
    if (options.mtime) await Deno.utime(temp, options.mtime, options.mtime);
    if (typeof previous?.uid === "number" && typeof previous.gid === "number") {
      // Keeping the owner needs privileges we usually lack; the content matters more, so a failure is fine.
      await Deno.chown(temp, previous.uid, previous.gid).catch(() => {});
    }
    await options.beforeRename?.();
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
  await syncFolder(dirname(path));
}

async function writeAll(file: Deno.FsFile, data: Uint8Array): Promise<void> {
  let written = 0;
  while (written < data.length) written += await file.write(data.subarray(written));
}

async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

async function chmodIfSupported(path: string, mode: number): Promise<void> {
  try {
    await Deno.chmod(path, mode);
  } catch (error) {
    // Windows has no permission bits: Deno.chmod is not implemented there.
    if (!(error instanceof Deno.errors.NotSupported) && !(error instanceof TypeError)) throw error;
  }
}

/** Makes the rename durable; best effort, since not every OS lets a folder be opened and flushed. */
async function syncFolder(folder: string): Promise<void> {
  try {
    using dir = await Deno.open(folder, { read: true });
    await dir.syncData();
  } catch {
    // Durability of the folder entry is a bonus; the write itself already succeeded.
  }
}

/** File names are capped at 255 bytes: leave room for the temp name's dot, tag and suffix. */
function shortened(name: string, maxBytes = 200): string {
  const encoder = new TextEncoder();
  if (encoder.encode(name).length <= maxBytes) return name;
  let out = "";
  for (const char of name) {
    if (encoder.encode(out + char).length > maxBytes) break;
    out += char;
  }
  return out;
}

function randomTag(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
