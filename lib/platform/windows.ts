/** Windows path and process rules as pure functions, testable on any OS. */
import { win32 as path } from "node:path";

/** The path rules of Windows: drive letters, UNC shares, case-insensitive names, `\` separators. */
export const windowsPaths = {
  path,
  /** Separator of path lists such as `MCP_WORKSPACE` (`:` is part of drive letters). */
  listSeparator: ";",
  /** Whether `child` is `parent` or lies under it, ignoring case as NTFS does. */
  isInside(child: string, parent: string): boolean {
    const relative = path.relative(parent.toLowerCase(), child.toLowerCase());
    return relative === "" ||
      (relative !== ".." && !relative.startsWith(`..\\`) && !path.isAbsolute(relative));
  },
  /** `file:///C:/a%20b` → `C:\a b`; `file://server/share/x` → `\\server\share\x`. */
  fileUrlToPath(url: string): string {
    const parsed = new URL(url);
    if (parsed.protocol !== "file:") throw new Error(`Not a file URL: ${url}`);
    const pathname = decodeURIComponent(parsed.pathname);
    if (parsed.hostname) return `\\\\${parsed.hostname}${pathname.replaceAll("/", "\\")}`;
    return pathname.replace(/^\/([a-zA-Z]:)/, "$1").replaceAll("/", "\\");
  },
  /** `\\?\C:\x` → `C:\x`: verbatim prefixes break comparisons and most tools. */
  normalizeReal(real: string): string {
    if (real.startsWith("\\\\?\\UNC\\")) return `\\\\${real.slice(8)}`;
    return real.startsWith("\\\\?\\") ? real.slice(4) : real;
  },
  /** Suffix of executables. */
  exeSuffix: ".exe",
  /** Signals that ask a server to shut down (Windows has no SIGTERM listener). */
  shutdownSignals: ["SIGINT", "SIGBREAK"] as Deno.Signal[],
};
