/** Which downstream tools a config entry shows: `tools.allow` / `tools.deny` globs (`*` and `?`). */
import type { ServerConfig } from "./types.ts";

/** Whether `name` matches `glob`, where `*` is any run of characters and `?` one character. */
export function globMatches(glob: string, name: string): boolean {
  const source = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*").replaceAll("?", ".");
  return new RegExp(`^${source}$`).test(name);
}

/** Shown when allow is empty or matches, and no deny matches. */
export function toolAllowed(tools: ServerConfig["tools"], name: string): boolean {
  if (tools.allow.length > 0 && !tools.allow.some((glob) => globMatches(glob, name))) return false;
  return !tools.deny.some((glob) => globMatches(glob, name));
}
