/** Turns a tool's path argument into an existing real path, or a ToolError that helps fix it. */
import { ToolError } from "../../lib/mcp/errors.ts";
import { pathError, quotablePath } from "../../lib/workspace/path_error.ts";
import type { FsDeps } from "./deps.ts";
import { similarPaths } from "./suggest.ts";

/** A path inside the workspace that exists. */
export interface Existing {
  real: string;
  /** `stat` of the real path (symlinks followed). */
  info: Deno.FileInfo;
}

/**
 * Resolves `path` inside the workspace and stats it; a missing path is a `not_found` error naming up to
 * three similar paths that exist. `verb` starts the message: `Cannot <verb> "<path>": ...`.
 */
export async function resolveExisting(
  deps: FsDeps,
  path: string,
  options: { verb: string; signal?: AbortSignal },
): Promise<Existing> {
  // The stat runs alongside the real-path lookup (each is a trip through Deno's blocking thread pool),
  // on the path as given: it follows the same symlinks to the same file. Only metadata is read before
  // the path is known to be inside, and none of it is used unless it is.
  await deps.workspace.ready();
  const stat = Deno.stat(deps.workspace.absolute(path)).then(
    (info) => ({ info }),
    (error: unknown) => ({ error }),
  );
  const real = await deps.workspace.resolveInside(path);
  const stated = await stat;
  if ("info" in stated) return { real, info: stated.info };
  if (!(stated.error instanceof Deno.errors.NotFound)) {
    throw pathError(stated.error, `Cannot ${options.verb} "${quotablePath(path)}"`);
  }
  const similar = await similarPaths(real, {
    root: deps.workspace.primary,
    tops: [...deps.workspace.roots, ...deps.workspace.allowDirs],
    rg: await deps.ripgrep(),
    signal: options.signal,
  }).catch(() => []);
  const hint = similar.length
    ? `; did you mean ${similar.map((p) => `"${deps.workspace.display(p)}"`).join(", ")}?`
    : "; check the path with fs_list";
  throw new ToolError(
    "not_found",
    `Cannot ${options.verb} "${quotablePath(path)}": no such file or folder${hint}`,
  );
}
