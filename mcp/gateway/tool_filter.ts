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

/** Whole-name match; every character but `*` and `?` is literal, case matters. */
export function globMatches(glob: string, name: string): boolean {
  const source = Array.from(
    glob,
    (char) =>
      char === "*" ? "[\\s\\S]*" : char === "?" ? "[\\s\\S]" : char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"),
  )
    .join("");
  return new RegExp(`^${source}$`, "u").test(name);
}
