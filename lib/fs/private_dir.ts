/**
 * Folders and files only this user can use: the HTTP token, OAuth tokens, the cross-process lock files.
 * A folder is created 0700; one that exists must be a real folder (not a symbolic link), owned by this user,
 * with no permission bits for group or others, and so must each file in it. Anything else is refused with
 * the reason, never repaired: a folder someone else could reach may already have leaked, or hold a file
 * planted to be used. Where the OS has no owners or permission bits (Windows) those two checks are skipped:
 * the per-user folders there are ACL'd to the user, and Deno shows no ACLs.
 * @module
 */
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";

/** Why a private folder or file cannot be used; the message says what to do. */
export class NotPrivateError extends Error {
  override readonly name = "NotPrivateError";
}

/**
 * Checks the folder `dir`, creating it (mode 0700) when `create` is set; false when it does not exist and
 * was not created. Throws {@link NotPrivateError} when it is not private.
 */
export async function ensurePrivateDir(dir: string, options: { create: boolean }): Promise<boolean> {
  let info = await lstatOrNull(dir);
  if (!info && options.create) {
    // The mode applies to every folder created (umask can only narrow it); one made meanwhile is checked.
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 }).catch((error) => {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    });
    info = await lstatOrNull(dir);
  }
  if (!info) return false;
  const what = `the folder "${dir}"`;
  if (info.isSymlink) {
    throw new NotPrivateError(`${what} is a symbolic link: remove it, and it is made afresh`);
  }
  if (!info.isDirectory) {
    throw new NotPrivateError(`${what} is not a folder: remove it, and it is made afresh`);
  }
  await checkOwnerAndMode(info, what, 0o700);
  return true;
}

/**
 * Checks the file `path` of a private folder before it is read: false when it does not exist; throws
 * {@link NotPrivateError} when it is a symbolic link (never followed), not a regular file, or not private.
 */
export async function checkPrivateFile(path: string): Promise<boolean> {
  const info = await lstatOrNull(path);
  if (!info) return false;
  await checkFile(info, path);
  return true;
}

/**
 * Opens the file `path` of a private folder, never through a symbolic link; null when it does not exist
 * and `create` is not set. With `create`, a missing file is made 0600 (`O_CREAT|O_EXCL` never follows a
 * link, even a dangling one). Deno has no `O_NOFOLLOW`, so an existing file is lstat-ed before and fstat-ed
 * after opening, and both must be one private regular file of this user's.
 */
export async function openPrivateFile(
  path: string,
  options: { write?: boolean; create?: boolean } = {},
): Promise<Deno.FsFile | null> {
  const write = options.write ?? false;
  if (options.create) {
    try {
      return await Deno.open(path, { read: true, write, createNew: true, mode: 0o600 });
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
  const before = await lstatOrNull(path);
  if (!before) return null;
  await checkFile(before, path);
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true, write });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  try {
    const after = await file.stat();
    // Where the OS has no inode numbers (null), a swap cannot be seen this way; the folder is ours alone.
    const swapped = before.ino !== null && after.ino !== null &&
      (before.ino !== after.ino || before.dev !== after.dev);
    if (swapped) throw new NotPrivateError(`the file "${path}" was replaced while being opened: try again`);
    await checkFile(after, path);
    return file;
  } catch (error) {
    file.close();
    throw error;
  }
}

/** The process's user id never changes: found once. */
let uidOnce: Promise<number | null> | undefined;

/**
 * The user id this process creates files as, or null where there is none (Windows). `Deno.uid()` needs
 * `--allow-sys`, which most servers lack; then the owner of a fresh file made in `probeDir` (default: the
 * temp folder; a place the caller can write anyway) says the same.
 */
export function ownUid(probeDir?: string): Promise<number | null> {
  uidOnce ??= (async () => {
    // Asked only when granted: a permission prompt must never wait on a person (or on an MCP pipe).
    if (Deno.permissions.querySync({ name: "sys", kind: "uid" }).state === "granted") return Deno.uid();
    const token = Array.from(
      crypto.getRandomValues(new Uint8Array(8)),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("");
    const probe = join(probeDir ?? tmpdir(), `.continue-mcp-uid-${token}`);
    // The handle's own stat: where others may write (a TMPDIR that is not sticky) they could swap the name.
    const file = await Deno.open(probe, { write: true, createNew: true, mode: 0o600 });
    try {
      return (await file.stat()).uid;
    } finally {
      file.close();
      await Deno.remove(probe).catch(() => {});
    }
  })();
  // A failed probe (no write permission there) may succeed elsewhere later.
  uidOnce.catch(() => uidOnce = undefined);
  return uidOnce;
}

/**
 * Checks that no other user can rename or replace `path` through a folder above it (call it before creating
 * `path`: folders that do not exist yet are skipped): each one, along the path as given and along its real
 * path, is ours or root's, and one others may write in is sticky like /tmp. A symbolic link on the way cannot
 * be changed, only replaced, which its folder decides. Throws {@link NotPrivateError} naming the folder.
 */
export async function checkAncestors(path: string): Promise<void> {
  const uid = await ownUid();
  if (uid === null) return; // No owners here (Windows): the per-user folders are ACL'd to their user.
  for (const start of new Set([resolve(path), await realPathSoFar(resolve(path))])) {
    for (let folder = dirname(start);; folder = dirname(folder)) {
      const info = await lstatOrNull(folder);
      if (info && !info.isSymlink && info.mode !== null) {
        const othersWrite = (info.mode & 0o022) !== 0 && (info.mode & 0o1000) === 0;
        if (othersWrite || (info.uid !== uid && info.uid !== 0)) {
          throw new NotPrivateError(
            `other users may rename it: the folder "${folder}" above it is mode ${
              (info.mode & 0o7777).toString(8).padStart(3, "0")
            }, owned by uid ${info.uid}`,
          );
        }
      }
      if (dirname(folder) === folder) break;
    }
  }
}

/** The real path of `path`, or of its nearest existing folder joined with the rest. */
async function realPathSoFar(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound) || dirname(path) === path) throw error;
    return join(await realPathSoFar(dirname(path)), basename(path));
  }
}

async function checkFile(info: Deno.FileInfo, path: string): Promise<void> {
  const what = `the file "${path}"`;
  if (info.isSymlink) throw new NotPrivateError(`${what} is a symbolic link: remove it`);
  if (!info.isFile) throw new NotPrivateError(`${what} is not a regular file: remove it`);
  await checkOwnerAndMode(info, what, 0o600);
}

async function checkOwnerAndMode(info: Deno.FileInfo, what: string, mode: number): Promise<void> {
  const uid = info.uid === null ? null : await ownUid();
  if (uid !== null && info.uid !== uid) {
    throw new NotPrivateError(
      `${what} belongs to another user (uid ${info.uid}, not ${uid}): its owner or root must remove it`,
    );
  }
  if (info.mode !== null && (info.mode & 0o077) !== 0) {
    const octal = (info.mode & 0o777).toString(8).padStart(3, "0");
    throw new NotPrivateError(
      `${what} has mode ${octal}, open to other users: check nothing was read or planted, then chmod ${
        mode.toString(8)
      } it`,
    );
  }
}

async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}
