/** A tool's path argument turned into the path it names, or refused when no file can have that name. */
import { ToolError } from "../mcp/errors.ts";
import { platform } from "../platform/mod.ts";
import { hasRawBytes, pathFromArgument } from "./path_text.ts";

/** The path a tool argument names, refused when no file can have that name. */
export function checkedPath(shown: string): string {
  // The one place a quoted, escaped name (`"a\nb.txt"`, as tools show odd names) is turned back into one.
  const path = pathFromArgument(shown);
  if (hasRawBytes(path)) {
    throw new ToolError(
      "invalid_argument",
      `Cannot use ${shown}: its name is not valid UTF-8, which this server cannot open; rename it (e.g. in a shell)`,
    );
  }
  if (path.includes("\0")) {
    throw new ToolError(
      "invalid_argument",
      `Cannot use path ${JSON.stringify(path)}: it contains a NUL byte`,
    );
  }
  if (platform.isDevicePath(path)) {
    throw new ToolError("invalid_argument", `Cannot use "${path}": it names a device, not a file`);
  }
  return path;
}
