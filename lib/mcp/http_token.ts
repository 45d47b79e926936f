/**
 * The bearer token HTTP mode requires when `MCP_HTTP_TOKEN` is not set: one random token per user, kept in
 * `<config>/continue-mcp/http-token` (a 0600 file in a 0700 folder), so a client configured once keeps working
 * across restarts and for every server; deleting the file rotates it. Anyone who can plant or read that file
 * can use the servers as this user (root, say), so it is trusted only when it is provably ours: a regular
 * file, not a symlink, owned by our uid, readable by nobody else, in a folder only we can write.
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

/** `<config>/continue-mcp/http-token` for this user (`env` as Deno.env), or undefined without a config folder. */
export function tokenFilePath(env: Record<string, string | undefined>): string | undefined {
  const config = userConfigDir(env);
  return config === undefined ? undefined : join(config, "continue-mcp", "http-token");
}

/** The token in `file`, after checking it and its folder; creates both (with a new token) when absent. */
export async function readOrCreateToken(file: string): Promise<string> {
  await checkUid(file);
  const dir = dirname(file);
  try {
    await ensurePrivateDir(dir, { create: true });
  } catch (error) {
    throw asTokenError(error, dir, `Cannot create the HTTP token folder "${dir}"`);
  }
  return await readToken(file) ?? await createToken(file);
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
  const token = generateToken();
  const temp = `${file}.${generateToken().slice(0, 12)}.tmp`;
  try {
    const handle = await Deno.open(temp, { write: true, createNew: true, mode: 0o600 });
    try {
      await handle.write(new TextEncoder().encode(`${token}\n`));
    } finally {
      handle.close();
    }
    await Deno.link(temp, file);
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      const theirs = await readToken(file);
      if (theirs !== undefined) return theirs;
    }
    throw asTokenError(error, dirname(file), `Cannot create the HTTP token file "${file}"`);
  } finally {
    await Deno.remove(temp).catch(() => {});
  }
  // Trust what is on disk, checked like any existing file, not what we meant to write.
  const written = await readToken(file);
  if (written === undefined) {
    throw new TokenFileError(`The HTTP token file "${file}" vanished after being made`);
  }
  return written;
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
