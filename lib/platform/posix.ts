/** POSIX (Linux, macOS) path and process rules as pure functions, testable on any OS. */
import { posix as path } from "node:path";

/** The path rules of POSIX systems. */
export const posixPaths = {
  path,
  /** Separator of path lists such as `MCP_WORKSPACE`. */
  listSeparator: ":",
  /** Whether `child` is `parent` or lies under it (both absolute and normalised). */
  isInside(child: string, parent: string): boolean {
    const relative = path.relative(parent, child);
    return relative === "" ||
      (relative !== ".." && !relative.startsWith(`../`) && !path.isAbsolute(relative));
  },
  /** `file:///home/a%20b` → `/home/a b`. */
  fileUrlToPath(url: string): string {
    const parsed = new URL(url);
    if (parsed.protocol !== "file:") throw new Error(`Not a file URL: ${url}`);
    return decodeURIComponent(parsed.pathname);
  },
  /** Canonical form of a path returned by `Deno.realPath`. */
  normalizeReal(real: string): string {
    return real;
  },
  /** Suffix of executables. */
  exeSuffix: "",
  /** Signals that ask a server to shut down. */
  shutdownSignals: ["SIGINT", "SIGTERM"] as Deno.Signal[],
};
