/**
 * Where the user's own git configs move hooks: `core.hooksPath` in `~/.gitconfig` or `$XDG_CONFIG_HOME/git/config`
 * applies to every repository, and a relative value lands in the working tree, where a job could write the
 * hooks the user's next commit runs. (A repository's own config is read by git_dirs.ts.)
 * @module
 */
import { resolve } from "node:path";
import { configValues, parseGitConfig } from "./git_config.ts";

/**
 * The folders a global `core.hooksPath` names for the repository at `root` (the last value of the first config
 * that sets it), with husky's `<dir>/_` also its parent, whose files its hooks run. Empty when unset.
 */
export async function globalHooksPaths(
  root: string,
  globalConfigs: readonly string[],
  home?: string,
): Promise<string[]> {
  for (const file of globalConfigs) {
    const text = await Deno.readTextFile(file).catch(() => "");
    const value = configValues(parseGitConfig(text), "core", "hookspath").at(-1);
    if (!value) continue;
    const path = resolve(root, home ? value.replace(/^~(?=\/)/, home) : value);
    return path.endsWith("/_") ? [path, path.slice(0, -2)] : [path];
  }
  return [];
}
