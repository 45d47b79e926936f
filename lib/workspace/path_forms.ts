/** Path spellings models send that are not plain paths: `file://` URLs and the shell's `~`. */
import { ToolError } from "../mcp/errors.ts";
import { isWindows, platform } from "../platform/mod.ts";

const HOME_PREFIX = isWindows ? /^~(?:[\\/]|$)/ : /^~(?:\/|$)/;

/**
 * The OS path a `file://` URL names, so it is judged like any absolute path; `~` and `~/…` are refused
 * rather than taken as a folder named `~`. Other paths are returned unchanged.
 */
export function fromPathForm(path: string): string {
  if (/^file:\/\//i.test(path)) {
    try {
      return platform.fileUrlToPath(path);
    } catch {
      throw new ToolError(
        "invalid_argument",
        `Cannot use "${path}": it is not a valid file URL; give a path relative to the workspace`,
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
