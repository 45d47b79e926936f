/** Path spellings models send that are not plain paths: `file://` URLs and the shell's `~`. */
import { ToolError } from "../mcp/errors.ts";
import { isWindows, platform } from "../platform/mod.ts";

const HOME_PREFIX = isWindows ? /^~(?:[\\/]|$)/ : /^~(?:\/|$)/;

/**
 * The OS path a `file://` URL names, so it is judged like any absolute path (one naming another machine is
 * refused on POSIX, a network share on Windows: platform `fileUrlToPath`); `~` and `~/…` are refused rather
 * than taken as a folder named `~`. Other paths are returned unchanged.
 */
export function fromPathForm(path: string): string {
  if (/^file:\/\//i.test(path)) {
    try {
      return platform.fileUrlToPath(path);
    } catch (error) {
      const why = error instanceof Error ? error.message : "is not a valid file URL";
      throw new ToolError(
        "invalid_argument",
        `Cannot use "${path}": it ${why}; give a local path or one relative to the workspace`,
      );
    }
  }
  if (HOME_PREFIX.test(path)) {
    throw new ToolError(
      "invalid_argument",
      `Cannot use "${path}": "~" (the home folder) is not expanded; give a path relative to the workspace or an absolute path`,
    );
  }
  return path;
}
