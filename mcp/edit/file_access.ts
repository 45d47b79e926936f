/**
 * The edit server's disk side: resolve a path inside the workspace, read it with the spec's checks,
 * write it back through the toolkit's one write path.
 * @module
 */
import { basename, dirname } from "node:path";
import { ToolError } from "../../lib/mcp/errors.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { checkWritable as checkFileWritable, writeFile, type WriteMethod } from "../../lib/fs/file_write.ts";
import type { FileLocks } from "../../lib/fs/file_lock.ts";
import { formatCount } from "../../lib/text/format.ts";
import { refuseProtectedWrite } from "../../lib/sandbox/write_guard.ts";
import { editError, withKind } from "./errors.ts";
import { visibleSimilarNames } from "./suggest.ts";

export type { WriteMethod };

/** A resolved path: its real location, how it is shown, and the roots its protected names are judged in. */
export interface ResolvedPath {
  real: string;
  display: string;
  roots: readonly string[];
}

/** A resolved path with its stat (null when it does not exist), taken under the file's lock. */
export interface Target extends ResolvedPath {
  info: Deno.FileInfo | null;
}

/**
 * Resolves `path` inside the workspace, refusing a protected name (a git hook, `.vscode/`, ...) as named or
 * where it leads before anything is read or a folder made.
 */
export async function resolvePath(workspace: Workspace, path: string, action: string): Promise<ResolvedPath> {
  let real: string;
  let roots: readonly string[];
  try {
    real = await workspace.resolveInside(path);
    roots = [...workspace.roots, ...workspace.allowDirs];
    await refuseProtectedWrite(workspace.absolute(path), { roots, action: `${action} "${path}"` });
  } catch (error) {
    if (error instanceof ToolError && error.code === "outside_workspace") {
      const roots = workspace.roots.join(", ");
      throw editError(
        "outside_workspace",
        `${action} "${path}": it resolves outside the workspace (${roots}); use a path inside it`,
      );
    }
    // No usable workspace root (too broad), or a folder of the path we may not enter.
    if (error instanceof ToolError && error.code === "permission_denied") {
      throw editError("permission_denied", error.message);
    }
    if (error instanceof ToolError) throw editError("invalid_request", error.message);
    throw ioError(error, `${action} "${path}"`);
  }
  return { real, display: workspace.display(real), roots };
}

/** Stats a resolved path; call it under the file's lock so the answer still holds when writing. */
export async function statTarget(path: ResolvedPath, action: string): Promise<Target> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path.real);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { ...path, info: null };
    throw ioError(error, `${action} "${path.display}"`);
  }
  // Opening a FIFO blocks until a peer shows up, and a device never ends: refuse them before any I/O.
  if (!info.isFile && !info.isDirectory) {
    throw editError(
      "invalid_request",
      `${action} "${path.display}": not a regular file (a pipe, socket or device)`,
    );
  }
  return { ...path, info };
}

/** The `not_found` error for a missing file, with similar names from its folder. */
export async function notFoundError(target: Target, action: string, hint: string): Promise<ToolError> {
  const similar = await visibleSimilarNames(dirname(target.real), basename(target.real));
  const folder = dirname(target.display);
  const shown = similar.map((name) => `"${folder === "." ? name : `${folder}/${name}`}"`);
  const suggestion = shown.length ? `; did you mean ${shown.join(" or ")}?` : "";
  return editError(
    "not_found",
    `${action} "${target.display}": no such file${suggestion}${hint ? ` ${hint}` : ""}`,
  );
}

/** Reads an existing target after the folder, permission and size checks. */
export async function readTarget(target: Target, maxBytes: number, action: string): Promise<Uint8Array> {
  const info = target.info!;
  if (info.isDirectory) {
    throw editError("is_directory", `${action} "${target.display}": it is a folder; give a file path`);
  }
  if (info.size > maxBytes) {
    throw editError(
      "too_large",
      `${action} "${target.display}": it has ${formatCount(info.size)} bytes, above the ${
        formatCount(maxBytes)
      }-byte limit`,
    );
  }
  try {
    return await Deno.readFile(target.real);
  } catch (error) {
    throw ioError(error, `${action} "${target.display}"`);
  }
}

/** Why a file was written in place, for the note in the answer. */
export const IN_PLACE_NOTE =
  "written in place (the file has hard links, its folder refuses new files, or a new file could not keep its owner or mode)";

/**
 * Writes `data` to the target through the toolkit's one write path (lib/fs/file_write.ts): atomic rename
 * keeping owner and mode, or in place, journaled, for hard links, folders that refuse new files, and files
 * a replacement could not keep the owner or mode of. Call it under the file's lock.
 */
export async function writeTarget(
  target: Target,
  data: Uint8Array,
  options: { action: string; locks: FileLocks },
): Promise<WriteMethod> {
  const action = `${options.action} "${target.display}"`;
  try {
    if (!target.info) await Deno.mkdir(dirname(target.real), { recursive: true });
    return await writeFile(target.real, data, {
      locks: options.locks,
      action,
      display: target.display,
      roots: target.roots,
    });
  } catch (error) {
    throw ioError(error, action);
  }
}

/** Throws unless the existing target may be written: checked for every file before a call writes any. */
export async function checkWritable(target: Target, action: string, locks: FileLocks): Promise<void> {
  const shown = `${action} "${target.display}"`;
  try {
    await checkFileWritable(target.real, target.info!, { action: shown, display: target.display, locks });
  } catch (error) {
    throw ioError(error, shown);
  }
}

/** Maps a filesystem error onto the spec's kinds, keeping the OS's code in the message. */
export function ioError(error: unknown, action: string): ToolError {
  if (error instanceof ToolError) return withKind(error);
  const code = (error as { code?: string })?.code;
  const detail = code ? ` (${code})` : "";
  if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
    return editError("permission_denied", `${action}: permission denied${detail}`);
  }
  if (error instanceof Deno.errors.IsADirectory) {
    return editError("is_directory", `${action}: it is a folder${detail}`);
  }
  if (error instanceof Deno.errors.NotFound) {
    return editError("not_found", `${action}: no such file${detail}`);
  }
  if (error instanceof Deno.errors.NotADirectory) {
    return editError("io_error", `${action}: a part of the path is a file, not a folder${detail}`);
  }
  const reason = error instanceof Error ? error.message : String(error);
  return editError("io_error", `${action}: ${reason}`);
}
