/** Finds an executable on PATH the way a shell would, with Windows' PATHEXT suffixes. */
import { isWindows, platform } from "./mod.ts";

/** The absolute path of `name` on `PATH` (or `env.PATH`), or null when none is executable. */
export async function findOnPath(
  name: string,
  env: { PATH?: string; PATHEXT?: string } = {},
): Promise<string | null> {
  const pathValue = env.PATH ?? Deno.env.get("PATH") ?? "";
  const suffixes = isWindows
    ? ["", ...(env.PATHEXT ?? Deno.env.get("PATHEXT") ?? ".EXE;.CMD;.BAT").split(";")]
    : [""];
  for (const dir of pathValue.split(platform.listSeparator)) {
    if (!dir) continue;
    for (const suffix of suffixes) {
      const candidate = platform.path.join(dir, name + suffix.toLowerCase());
      try {
        const info = await Deno.stat(candidate);
        if (info.isFile && (isWindows || ((info.mode ?? 0) & 0o111) !== 0)) return candidate;
      } catch {
        // Not here: keep looking.
      }
    }
  }
  return null;
}
