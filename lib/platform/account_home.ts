/**
 * A user's home folder as the account database gives it for a uid, never from the environment: MCP clients
 * start servers with different environments (HOME unset, or another user's after `sudo`), and every server
 * of one user must find the same folder. Pure rules plus their one reader; `mod.ts` picks the OS.
 * @module
 */
import { posix } from "node:path";
import type { OsName } from "./desktop.ts";

/** The home field of the first `/etc/passwd` line of `uid` (the one getpwuid returns), or null. */
export function passwdHome(passwd: string, uid: number): string | null {
  for (const line of passwd.split("\n")) {
    const fields = line.split(":");
    // Comments are skipped as glibc skips them; NIS `+`/`-` lines have no uid field, so they never match.
    if (line.trimStart().startsWith("#") || fields.length < 7 || fields[2] !== String(uid)) continue;
    return fields[5].startsWith("/") ? posix.resolve(fields[5]) : null;
  }
  return null;
}

/** A folder entry of `/Users` with its owner (lstat: a symbolic link is not a folder). */
export interface OwnedEntry {
  path: string;
  uid: number | null;
  isDirectory: boolean;
}

/**
 * macOS lists only system accounts in /etc/passwd (Directory Services has the rest, out of reach without
 * --allow-sys): there a user's home is the one folder of `/Users` that the uid owns; none or several is null.
 */
export function ownedHome(entries: readonly OwnedEntry[], uid: number): string | null {
  const owned = entries.filter((entry) => entry.isDirectory && entry.uid === uid);
  return owned.length === 1 ? owned[0].path : null;
}

/** Where {@link accountHome} reads; tests point it at fixtures. */
export interface AccountFiles {
  passwd: string;
  users: string;
}

/** The home of `uid` on `os` from the files above; null on Windows (per-user folders are ACL'd there). */
export async function accountHome(
  os: OsName,
  uid: number,
  files: AccountFiles = { passwd: "/etc/passwd", users: "/Users" },
): Promise<string | null> {
  if (os === "windows") return null;
  const fromPasswd = passwdHome(await Deno.readTextFile(files.passwd).catch(() => ""), uid);
  if (fromPasswd !== null || os !== "darwin") return fromPasswd;
  const entries: OwnedEntry[] = [];
  try {
    for await (const entry of Deno.readDir(files.users)) {
      const path = posix.join(files.users, entry.name);
      const info = await Deno.lstat(path).catch(() => null);
      if (info) entries.push({ path, uid: info.uid, isDirectory: info.isDirectory });
    }
  } catch {
    return null;
  }
  return ownedHome(entries, uid);
}
