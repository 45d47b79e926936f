/**
 * Path helpers shared by the write guard's rules (write_guard.ts, git_guard.ts, link_guard.ts): how a path is
 * split and shown relative to its root, and containment that ignores letter case (macOS and Windows open
 * `.Git/Config` for `.git/config`; refusing the other spelling on Linux too costs nothing).
 * @module
 */
import { platform, toSlashes } from "../platform/mod.ts";

/**
 * The parts of `absolute` below `root`, each as the file system will store it: Windows drops trailing dots
 * and spaces and reads `name:stream` as the file `name`, so `.git/config.` or `.git/config::$DATA` is
 * `.git/config`. Done on every OS: refusing such odd names elsewhere too costs nothing.
 */
export function relativeParts(root: string, absolute: string): string[] {
  return toSlashes(platform.path.relative(root, absolute)).split("/")
    .map((part) => part.replace(/:.*$/s, "").replace(/[. ]+$/, ""))
    .filter((part) => part !== "");
}

/** `absolute` as shown in a refusal: relative to `root` when inside it (`.` for the root), else absolute. */
export function shown(root: string, absolute: string): string {
  if (!platform.isInside(absolute, root)) return toSlashes(absolute);
  return relativeParts(root, absolute).join("/") || ".";
}

/** Whether `child` is `parent` or below it, letters compared in any case. */
export function insideFolded(child: string, parent: string): boolean {
  return platform.isInside(child.toLowerCase(), parent.toLowerCase());
}

/** The entry's lstat, or null when there is none (or it cannot be seen). */
export async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch {
    return null;
  }
}

/** The entry's stat (symlinks followed), or null. */
export async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch {
    return null;
  }
}

/**
 * A small regular file's text, or null when it is not one or cannot be read (a FIFO would block the open).
 * At most `max` bytes are read: git's own files are far smaller.
 */
export async function readSmall(path: string, max = 1024 * 1024): Promise<string | null> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) return null;
    if (info.size <= max) return await Deno.readTextFile(path);
    using file = await Deno.open(path, { read: true });
    const buffer = new Uint8Array(max);
    let length = 0;
    while (length < max) {
      const read = await file.read(buffer.subarray(length));
      if (read === null) break;
      length += read;
    }
    return new TextDecoder().decode(buffer.subarray(0, length));
  } catch {
    return null;
  }
}
