/**
 * What a file lock is keyed by. A path alone is not enough: two hard-link names are one file, and a rename
 * replacement gives one name a new file. So a locked run holds two keys per file, in one global order: the
 * path (its folder resolved, so two spellings meet) and the file's identity (device + inode, so two names of
 * one file meet). Before and after a rename-replace the path key is the same; between hard links the
 * identity key is.
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { sha256Hex } from "./sha256.ts";

/** One file of a locked run: its keys, and its identity when it exists and the OS gives inode numbers. */
export interface LockTarget {
  path: string;
  pathKey: string;
  /** `dev:ino`, or null: no such file yet, or no inode numbers (Windows may not give them). */
  identity: string | null;
}

/** The keys of `path` as it is now. */
export async function lockTarget(path: string): Promise<LockTarget> {
  const [pathKey, identity] = await Promise.all([pathKeyOf(path), identityOf(path)]);
  return { path, pathKey, identity };
}

/** The real path (the folder resolved, so two spellings of one file share a key). */
export async function pathKeyOf(path: string): Promise<string> {
  const absolute = resolve(path);
  try {
    return join(await Deno.realPath(dirname(absolute)), basename(absolute));
  } catch {
    return absolute; // A folder that does not exist yet: the write creates it.
  }
}

/** `dev:ino` of the file `path` names (symlinks followed), or null. */
export async function identityOf(path: string): Promise<string | null> {
  try {
    return identityKey(await Deno.stat(path));
  } catch {
    return null; // Missing, or not ours to stat: the path key alone guards it.
  }
}

/** `dev:ino` of a stat, or null where the OS gives no inode number. */
export function identityKey(info: Deno.FileInfo): string | null {
  return info.ino === null || info.dev === null ? null : `${info.dev}:${info.ino}`;
}

/** The key a file's interrupted-write journal is stored under: its identity, else its path. */
export function journalKey(target: LockTarget): string {
  return target.identity ?? `path:${target.pathKey}`;
}

/** The lock key a journal's key stands for: the identity, or the path key. */
export function lockKeyOfJournal(key: string): string {
  return key.startsWith("path:") ? key.slice("path:".length) : key;
}

/** Which of `buckets` lock files guards `key`. */
export async function bucketOf(key: string, buckets: number): Promise<number> {
  return parseInt((await sha256Hex(new TextEncoder().encode(key))).slice(0, 8), 16) % buckets;
}
