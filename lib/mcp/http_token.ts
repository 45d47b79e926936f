/**
 * The bearer token HTTP mode requires when `MCP_HTTP_TOKEN` is not set: one random token per user and port,
 * kept in `<config>/continue-mcp/http-token-<port>` (a 0600 file in a 0700 folder), so a client configured
 * once for a server's URL keeps working across restarts; deleting the file rotates it. One token per port,
 * not per user: a client hands its token to whatever listens on the port it was given, so a token captured
 * there (by another user who took the port) opens no server on another port. Anyone who can plant or read
 * the file can use that server as this user (root, say), so it is trusted only when it is provably ours: a
 * regular file, not a symlink, owned by our uid, readable by nobody else, in a folder only we can write.
 * @module
 */
import { dirname, join } from "node:path";
import { isWindows, userConfigDir } from "../platform/mod.ts";
import { ensurePrivateDir, NotPrivateError, openPrivateFile, ownUid } from "../fs/private_dir.ts";

/** The token file cannot be trusted or made; the message is one line saying why and what to do. */
export class TokenFileError extends Error {}

/** 32 random bytes: 256 bits, 43 base64url characters. */
const TOKEN_BYTES = 32;
/** A token typed into the file by hand must still be one nobody guesses. */
const MIN_TOKEN_LENGTH = 32;
/** Far more than a token: a bigger file is not one we wrote. */
const MAX_FILE_BYTES = 4096;

/**
 * `<config>/continue-mcp/http-token-<port>` for this user (`env` as Deno.env) and the port a server listens
 * on, or undefined without a config folder.
 */
export function tokenFilePath(env: Record<string, string | undefined>, port: number): string | undefined {
  const config = userConfigDir(env);
  return config === undefined ? undefined : join(config, "continue-mcp", `http-token-${port}`);
}

/** The token in `file`, after checking it and its folder; creates both (with a new token) when absent. */
export async function readOrCreateToken(file: string): Promise<string> {
  await ensureTokenDir(file);
  return await readToken(file) ?? await createToken(file);
}

/**
 * Replaces the token in `file` with a fresh one (creating it, and its folder, when absent): for a token that
 * may have been captured. The new file is written privately under a temporary name and renamed over the old
 * one, so a reader sees one token or the other, and a symlink in its place is replaced, never followed.
 */
export async function rotateToken(file: string): Promise<void> {
  await ensureTokenDir(file);
  let temp: string | undefined;
  try {
    temp = await writeTemp(file, generateToken());
    await Deno.rename(temp, file);
  } catch (error) {
    if (temp !== undefined) await Deno.remove(temp).catch(() => {});
    throw asTokenError(error, dirname(file), `Cannot replace the HTTP token file "${file}"`);
  }
}

/** Checks the token file's folder, creating it private when absent. */
async function ensureTokenDir(file: string): Promise<void> {
  await checkUid(file);
  const dir = dirname(file);
  try {
    await ensurePrivateDir(dir, { create: true });
  } catch (error) {
    throw asTokenError(error, dir, `Cannot create the HTTP token folder "${dir}"`);
  }
}

/** A fresh random token, base64url. */
export function generateToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(TOKEN_BYTES));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Owners are checked against our uid, which needs --allow-sys=uid (HTTP mode grants it; a server without
 * file writes could not probe for it). Windows has no uids: there `%APPDATA%` is ACL'd to the user.
 */
async function checkUid(file: string): Promise<void> {
  if (isWindows) return;
  try {
    await ownUid();
  } catch (error) {
    if (!(error instanceof Deno.errors.NotCapable)) throw error;
    throw new TokenFileError(
      `Cannot check who owns the HTTP token file "${file}": HTTP mode needs --allow-sys=uid, or set MCP_HTTP_TOKEN`,
    );
  }
}

/** The token in `file`; undefined when there is no such file. */
async function readToken(file: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await openPrivateFile(file);
  } catch (error) {
    throw asTokenError(error, file, `Cannot read the HTTP token file "${file}"`);
  }
  if (!handle) return undefined;
  try {
    return parseToken(file, await readCapped(handle));
  } finally {
    handle.close();
  }
}

/**
 * Writes a new token to a private temporary file, then hard-links it into place: the link is atomic and never
 * replaces a file, so of two servers starting at once both end up with the one that got there first.
 */
async function createToken(file: string): Promise<string> {
  let temp: string | undefined;
  try {
    temp = await writeTemp(file, generateToken());
    await Deno.link(temp, file);
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      const theirs = await readToken(file);
      if (theirs !== undefined) return theirs;
    }
    throw asTokenError(error, dirname(file), `Cannot create the HTTP token file "${file}"`);
  } finally {
    if (temp !== undefined) await Deno.remove(temp).catch(() => {});
  }
  // Trust what is on disk, checked like any existing file, not what we meant to write.
  const written = await readToken(file);
  if (written === undefined) {
    throw new TokenFileError(`The HTTP token file "${file}" vanished after being made`);
  }
  return written;
}

/** Writes `token` to a new 0600 file next to `file`; returns its path. */
async function writeTemp(file: string, token: string): Promise<string> {
  const temp = `${file}.${generateToken().slice(0, 12)}.tmp`;
  const handle = await Deno.open(temp, { write: true, createNew: true, mode: 0o600 });
  try {
    await handle.write(new TextEncoder().encode(`${token}\n`));
  } finally {
    handle.close();
  }
  return temp;
}

function parseToken(file: string, text: string): string {
  const token = text.trim();
  if (token.length < MIN_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token)) {
    throw new TokenFileError(
      `Cannot use the HTTP token file "${file}": it must hold one token of at least ${MIN_TOKEN_LENGTH} ` +
        "visible ASCII characters; delete it to make a new one",
    );
  }
  return token;
}

async function readCapped(handle: Deno.FsFile): Promise<string> {
  const buffer = new Uint8Array(MAX_FILE_BYTES + 1);
  let length = 0;
  while (length < buffer.length) {
    const read = await handle.read(buffer.subarray(length));
    if (read === null) break;
    length += read;
  }
  return length > MAX_FILE_BYTES ? "" : new TextDecoder().decode(buffer.subarray(0, length));
}

/** A missing permission becomes the flag to add; other OS errors keep their text. */
function asTokenError(error: unknown, path: string, action: string): TokenFileError {
  if (error instanceof TokenFileError) return error;
  if (error instanceof NotPrivateError) {
    return new TokenFileError(`Cannot use the HTTP token: ${error.message}`);
  }
  if (error instanceof Deno.errors.NotCapable) {
    const flag = /read access/.test(String(error)) ? "--allow-read" : `--allow-write=${path}`;
    return new TokenFileError(`${action}: HTTP mode needs ${flag} for it, or set MCP_HTTP_TOKEN`);
  }
  return new TokenFileError(`${action}: ${error instanceof Error ? error.message : String(error)}`);
}
