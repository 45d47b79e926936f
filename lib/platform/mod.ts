/**
 * The one place that asks which OS we run on. Everything OS-specific is chosen here from the pure
 * rule sets in `posix.ts` and `windows.ts`.
 * @module
 */
import { posixPaths } from "./posix.ts";
import { windowsPaths } from "./windows.ts";

/** The OS we run on, as Deno names it. */
export const os: typeof Deno.build.os = Deno.build.os;

/** True on Windows. */
export const isWindows: boolean = os === "windows";

/** The path rules of this OS. */
export const platform: typeof posixPaths = isWindows ? windowsPaths : posixPaths;

/** Converts an OS path to the `/`-separated form shown to the model on every OS. */
export function toSlashes(path: string): string {
  return isWindows ? path.replaceAll("\\", "/") : path;
}
