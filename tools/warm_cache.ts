/**
 * Fills Deno's module cache with every server's graph (npm packages, and the ones imported dynamically such
 * as `@vscode/ripgrep`), so a server then starts with `--cached-only`: no network, no `Download` lines, and
 * no npm metadata fetched on each start. Doctor runs it first; `deno task install` relies on the same cache.
 * @module
 */
import { REPO_ROOT, type ServerEntry } from "./catalog.ts";

/** Whether the cache now holds everything `servers` import, and Deno's message when it does not. */
export interface CacheWarmth {
  ok: boolean;
  error?: string;
}

/** `deno cache` of every entry, with the repository's config and frozen lock; `env` may name a `DENO_DIR`. */
export async function warmCache(
  servers: readonly ServerEntry[],
  options: { env?: Record<string, string> } = {},
): Promise<CacheWarmth> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["cache", "--quiet", ...servers.map((server) => server.entry)],
    cwd: REPO_ROOT,
    env: options.env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (output.success) return { ok: true };
  const error = new TextDecoder().decode(output.stderr).trim();
  return { ok: false, error: `deno cache failed: ${error || `exit code ${output.code}`}` };
}
