/**
 * The user's desktop, per OS, as pure functions: where per-user config lives and how a URL is opened in
 * the default browser. `mod.ts` picks the OS; these take it as an argument so every OS's rules are tested
 * everywhere.
 * @module
 */
import { posix, win32 } from "node:path";

/** An OS as Deno names it. */
export type OsName = typeof Deno.build.os;

/**
 * The per-user config folder: `%APPDATA%` on Windows, `~/Library/Application Support` on macOS,
 * `$XDG_CONFIG_HOME` else `~/.config` elsewhere. Undefined when the variables it needs are unset.
 */
export function userConfigHome(os: OsName, env: Record<string, string | undefined>): string | undefined {
  if (os === "windows") {
    if (env.APPDATA) return env.APPDATA;
    return env.USERPROFILE ? win32.join(env.USERPROFILE, "AppData", "Roaming") : undefined;
  }
  if (os === "darwin") return env.HOME ? posix.join(env.HOME, "Library", "Application Support") : undefined;
  // XDG: a relative XDG_CONFIG_HOME is invalid and must be ignored.
  if (env.XDG_CONFIG_HOME?.startsWith("/")) return env.XDG_CONFIG_HOME;
  return env.HOME ? posix.join(env.HOME, ".config") : undefined;
}

/**
 * The argv that opens `url` in the default browser. On Windows, `rundll32 url.dll,FileProtocolHandler`
 * rather than `cmd /c start`: cmd would read the `&` of a query string as a command separator. Throws for
 * anything but http(s): each opener hands other schemes to their handlers (a file: link runs a planted
 * .desktop or .url file).
 */
export function openUrlArgv(os: OsName, url: string): string[] {
  const scheme = URL.parse(url)?.protocol;
  if (scheme !== "https:" && scheme !== "http:") {
    throw new Error(
      `Refused to open "${url}" in a browser: scheme "${scheme ?? "none"}" is not http: or https:`,
    );
  }
  if (os === "windows") return ["rundll32", "url.dll,FileProtocolHandler", url];
  if (os === "darwin") return ["open", url];
  return ["xdg-open", url];
}
