/** The user's home folders, which no workspace root may be or hold, and notes never live in. */
import { platform } from "../platform/mod.ts";

/** The real paths of `HOME` and `USERPROFILE` (whichever are set) from an environment map. */
export function homeFolders(env: Record<string, string | undefined>): string[] {
  return [env.HOME, env.USERPROFILE].filter((home): home is string => !!home).map((home) => {
    try {
      return platform.normalizeReal(Deno.realPathSync(home));
    } catch {
      return platform.path.resolve(home);
    }
  });
}
