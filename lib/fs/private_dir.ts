/**
 * A folder for secrets that only this user can use, and the files in it: the folder is created 0700; one
 * that exists must be a real folder (not a symbolic link), owned by this user, with no permission bits for
 * group or others, and so must each file read from it. Anything else is refused with the reason, never
 * repaired: a folder someone else could reach may already have leaked, or hold a file planted to be used.
 * Where the OS has no owners or permission bits (Windows) those two checks are skipped.
 * @module
 */

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
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
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
 * Checks the file `path` in a private folder before it is read: false when it does not exist; throws
 * {@link NotPrivateError} when it is a symbolic link (never followed), not a regular file, or not private.
 */
export async function checkPrivateFile(path: string): Promise<boolean> {
  const info = await lstatOrNull(path);
  if (!info) return false;
  const what = `the file "${path}"`;
  if (info.isSymlink || !info.isFile) {
    throw new NotPrivateError(`${what} is not a regular file (a symbolic link?): remove it`);
  }
  await checkOwnerAndMode(info, what, 0o600);
  return true;
}

/** The process's user id never changes: found once (the probe writes a file). */
let uidOnce: Promise<number | null> | undefined;

/**
 * The user id this process creates files as, or null where there is none (Windows). Deno.uid() needs
 * --allow-sys; without it, the owner of a fresh temp file says the same.
 */
export function ownUid(): Promise<number | null> {
  uidOnce ??= (async () => {
    // Asked only when granted: a permission prompt must never wait on a person (or on an MCP pipe).
    if (Deno.permissions.querySync({ name: "sys", kind: "uid" }).state === "granted") return Deno.uid();
    const probe = await Deno.makeTempFile({ prefix: "uid-probe-" });
    try {
      return (await Deno.lstat(probe)).uid;
    } finally {
      await Deno.remove(probe).catch(() => {});
    }
  })();
  return uidOnce;
}

async function checkOwnerAndMode(info: Deno.FileInfo, what: string, mode: number): Promise<void> {
  const uid = info.uid === null ? null : await ownUid();
  if (uid !== null && info.uid !== uid) {
    throw new NotPrivateError(`${what} belongs to another user (uid ${info.uid}, not ${uid}): remove it`);
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
