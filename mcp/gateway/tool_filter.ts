/**
 * Per-server tool shaping from the config: which downstream tools are shown (allow/deny globs over the
 * tool's own name, `*` any run of characters, `?` one) and which description the model reads.
 * @module
 */
import type { ServerConfig } from "./types.ts";

/** True when the tool matches an allow glob (or there are none) and no deny glob. */
export function toolVisible(config: Pick<ServerConfig, "tools">, toolName: string): boolean {
  const { allow, deny } = config.tools;
  if (allow.length > 0 && !allow.some((glob) => globMatches(glob, toolName))) return false;
  return !deny.some((glob) => globMatches(glob, toolName));
}

/** The config's override of the tool's description, or the server's own. */
export function toolDescription(
  config: Pick<ServerConfig, "descriptions">,
  tool: { name: string; description?: string },
): string | undefined {
  return Object.hasOwn(config.descriptions, tool.name) ? config.descriptions[tool.name] : tool.description;
}

/**
 * Whole-name match; every character but `*` and `?` is literal, case matters. A two-pointer scan that only
 * ever goes back to the last `*`: at most (name length × glob length) steps, where a glob turned into a
 * regular expression (`^.*a.*b$`) would backtrack polynomially over a long name a downstream server sent.
 */
export function globMatches(glob: string, name: string): boolean {
  const pattern = Array.from(glob);
  const text = Array.from(name);
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      resume = t;
    } else if (p < pattern.length && (pattern[p] === "?" || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (star >= 0) {
      // The last `*` takes one more character; everything after it is matched again from there.
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  return p === pattern.length;
}
