/**
 * Errors about a path itself, not the file it names: a symlink loop or a name the OS refuses as too long.
 * Both are the caller's to fix, so they are invalid_argument with the reason, never internal.
 * @module
 */
import { ToolError, toToolError } from "../mcp/errors.ts";

/** Whether `error` is about the path itself: a symlink loop or a name too long. */
export function isPathError(error: unknown): boolean {
  return isLoop(error) || isTooLong(error);
}

/** `action` (`Cannot read "a"`) plus the reason for a path error; other errors go to `toToolError`. */
export function pathError(error: unknown, action: string): ToolError {
  if (error instanceof ToolError) return error;
  if (isLoop(error)) {
    return new ToolError(
      "invalid_argument",
      `${action}: a symlink loop (too many levels of symbolic links); point the link at a real file or folder`,
    );
  }
  if (isTooLong(error)) {
    return new ToolError(
      "invalid_argument",
      `${action}: the path is too long (a name over 255 bytes or a path over 4,096 bytes); shorten it`,
    );
  }
  return toToolError(error, action);
}

function isLoop(error: unknown): boolean {
  return error instanceof Deno.errors.FilesystemLoop || errorCode(error) === "ELOOP";
}

function isTooLong(error: unknown): boolean {
  return errorCode(error) === "ENAMETOOLONG" || /name too long/i.test(String(error));
}

function errorCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** A path as quoted in a message: a very long one keeps its start and end around an ellipsis. */
export function quotablePath(path: string): string {
  return path.length <= 200 ? path : `${path.slice(0, 120)}…${path.slice(-60)}`;
}
