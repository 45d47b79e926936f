/** Turns the `sql` / `path` / `paths` arguments into the texts to check, confined to the workspace. */
import { join } from "node:path";
import { ToolError, toToolError } from "../../lib/mcp/errors.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { formatCount } from "../../lib/text/format.ts";
import { identityKey } from "../../lib/fs/lock_keys.ts";
import type { SqlInput } from "./engine.ts";

/** Largest inline SQL or file accepted. */
export const MAX_SQL_BYTES = 1_000_000;
/** Most files in one call, folders expanded. */
export const MAX_FILES = 200;

/** An input read from a workspace file. */
export interface FileInput extends SqlInput {
  /** Real absolute path. */
  real: string;
  /** The bytes read (a BOM included), which a write checks the file still holds. */
  bytes: Uint8Array;
  /** `dev:ino` as read, or null: two names with one identity are hard links of one file. */
  identity: string | null;
}

/** The arguments naming what to check. */
export interface InputArgs {
  sql?: string;
  path?: string;
  paths?: string[];
}

/** Inline SQL as one unnamed input, or every named file (folders expand to their `*.sql` files). */
export async function collectInputs(
  args: InputArgs,
  workspace: Workspace,
  action: string,
): Promise<{ inline: SqlInput } | { files: FileInput[] }> {
  const paths = [...(args.path === undefined ? [] : [args.path]), ...(args.paths ?? [])];
  if (args.sql !== undefined && paths.length) {
    throw new ToolError("invalid_argument", `${action}: pass either sql or path/paths, not both`);
  }
  if (args.sql !== undefined) {
    checkSize(new TextEncoder().encode(args.sql).length, "the sql argument", action);
    return { inline: { name: "", content: args.sql } };
  }
  if (!paths.length) throw new ToolError("invalid_argument", `${action}: pass sql, or path or paths`);
  const reals: string[] = [];
  for (const path of paths) {
    const real = await workspace.resolveInside(path);
    const info = await Deno.stat(real).catch((error) => {
      throw toToolError(error, `${action}: cannot read "${path}"`);
    });
    if (info.isDirectory) reals.push(...await sqlFilesUnder(real, action));
    else if (info.isFile) reals.push(real);
    else throw notRegular(path, action);
    if (reals.length > MAX_FILES) {
      throw new ToolError(
        "too_large",
        `${action}: more than ${MAX_FILES} files; pass a narrower folder or fewer paths`,
      );
    }
  }
  const unique = [...new Set(reals)];
  if (!unique.length) {
    throw new ToolError(
      "not_found",
      `${action}: no .sql files under ${paths.map((p) => `"${p}"`).join(", ")}`,
    );
  }
  const read = await Promise.all(unique.map((real) => readInput(real, workspace, action)));
  // One bad file must not hide the others' results; with nothing readable, its error is the answer.
  const readable = read.find((file) => !file.error);
  if (!readable) throw read[0].error;
  return { files: read.map(({ error: _, ...file }) => file) };
}

/** A file's input, or (with `skipped` and `error` set) why it cannot be checked while the others can. */
async function readInput(
  real: string,
  workspace: Workspace,
  action: string,
): Promise<FileInput & { error?: ToolError }> {
  const name = workspace.display(real);
  // A skipped file is never written: its bytes are only what was read, if anything.
  const skip = (skipped: string, error: ToolError, bytes: Uint8Array = new Uint8Array()) => ({
    name,
    real,
    bytes,
    identity: null,
    content: "",
    skipped,
    error,
  });
  let bytes: Uint8Array;
  let identity: string | null;
  try {
    // Checked before opening: opening a FIFO blocks until a writer comes, and a huge file is never read.
    const info = await Deno.stat(real);
    identity = identityKey(info);
    if (!info.isFile) throw notRegular(name, action);
    checkSize(info.size, `"${name}"`, action);
    bytes = await readAtMost(real, MAX_SQL_BYTES + 1, info.size);
  } catch (error) {
    const failure = toToolError(error, `${action}: cannot read "${name}"`);
    if (error instanceof ToolError) throw failure; // too large, not a regular file: the call is wrong
    return skip(`cannot read it (${failure.code})`, failure);
  }
  // The file may have grown since the stat.
  checkSize(bytes.length, `"${name}"`, action);
  try {
    return { name, real, bytes, identity, content: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    const error = new ToolError("invalid_argument", `${action}: "${name}" is not UTF-8 text`);
    return skip("not UTF-8 text", error, bytes);
  }
}

/** The first `limit` bytes of the file (all of it when shorter); `sizeHint` sizes the first buffer. */
async function readAtMost(path: string, limit: number, sizeHint: number): Promise<Uint8Array> {
  using file = await Deno.open(path);
  let buffer = new Uint8Array(Math.min(limit, sizeHint + 1));
  let length = 0;
  while (true) {
    if (length === buffer.length) {
      if (length >= limit) break;
      const grown = new Uint8Array(Math.min(limit, buffer.length * 2));
      grown.set(buffer);
      buffer = grown;
    }
    const n = await file.read(buffer.subarray(length));
    if (n === null) break;
    length += n;
  }
  return buffer.subarray(0, length);
}

function notRegular(name: string, action: string): ToolError {
  return new ToolError(
    "invalid_argument",
    `${action}: cannot read "${name}": not a regular file (a pipe, socket or device); pass .sql files or folders`,
  );
}

function checkSize(bytes: number, what: string, action: string): void {
  if (bytes > MAX_SQL_BYTES) {
    throw new ToolError(
      "too_large",
      `${action}: ${what} has ${formatCount(bytes)} bytes, over the ${
        formatCount(MAX_SQL_BYTES)
      } limit; split it`,
    );
  }
}

/** Regular `*.sql` files under `dir`, sorted, skipping hidden folders, `node_modules`, pipes and links. */
async function sqlFilesUnder(dir: string, action: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string) => {
    const entries: Deno.DirEntry[] = [];
    for await (const entry of Deno.readDir(current)) entries.push(entry);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (found.length > MAX_FILES) return;
      const full = join(current, entry.name);
      if (entry.isDirectory && !entry.name.startsWith(".") && entry.name !== "node_modules") await walk(full);
      else if (entry.isFile && entry.name.toLowerCase().endsWith(".sql")) found.push(full);
    }
  };
  try {
    await walk(dir);
  } catch (error) {
    throw toToolError(error, `${action}: cannot list "${dir}"`);
  }
  return found;
}
