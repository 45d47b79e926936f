/**
 * Which ripgrep the search and fs servers run: `RG_PATH`, else the binary shipped in `npm:@vscode/ripgrep`
 * (no install step; a compiled server copies it out to a private folder: extract.ts), else the
 * `continue-mcp-rg` the release archives and `deno task install` put beside compiled executables (found
 * through a symlink too), else `rg` on PATH.
 * @module
 */
import { ToolError } from "../mcp/errors.ts";
import { extractEmbedded } from "./extract.ts";
import { findOnPath } from "../platform/which.ts";
import { platform } from "../platform/mod.ts";

/** A ripgrep that answered `--version`. */
export interface Ripgrep {
  path: string;
  /** `15.0.0` */
  version: string;
  source: "RG_PATH" | "bundled" | "beside" | "PATH";
}

/** File name of the ripgrep copy `deno task install` puts beside compiled executables. */
export const BESIDE_NAME = `continue-mcp-rg${platform.exeSuffix}`;

/** How to get ripgrep when none is found. */
export const RIPGREP_HINT =
  "install ripgrep (https://github.com/BurntSushi/ripgrep#installation, e.g. `apt install ripgrep`, `brew install ripgrep`, `winget install BurntSushi.ripgrep.MSVC`) or set RG_PATH";

let cached: Promise<Ripgrep | null> | undefined;

/**
 * The ripgrep to use (found once per process from `RG_PATH`), or from an explicit env; null when none.
 * A miss is not remembered: a ripgrep installed while the server runs is found on the next call.
 */
export function locateRipgrep(env?: { RG_PATH?: string }): Promise<Ripgrep | null> {
  if (env) return findRipgrep(env);
  const found = cached ??= findRipgrep({ RG_PATH: Deno.env.get("RG_PATH") });
  found.then((rg) => {
    if (rg === null && cached === found) cached = undefined;
  });
  return found;
}

/** Like {@link locateRipgrep}, but a missing ripgrep is an `unavailable` ToolError saying how to get one. */
export async function requireRipgrep(env?: { RG_PATH?: string }): Promise<Ripgrep> {
  const found = await locateRipgrep(env);
  if (found) return found;
  const override = env ? env.RG_PATH : Deno.env.get("RG_PATH");
  if (override) {
    throw new ToolError(
      "unavailable",
      `Cannot run ripgrep: RG_PATH "${override}" does not answer \`--version\`; fix it, or unset RG_PATH to use the bundled one`,
    );
  }
  throw new ToolError("unavailable", `Cannot run ripgrep: none found; ${RIPGREP_HINT}`);
}

async function findRipgrep(env: { RG_PATH?: string }): Promise<Ripgrep | null> {
  if (env.RG_PATH) return await probe(env.RG_PATH, "RG_PATH");
  const bundled = await bundledPath();
  if (bundled) {
    const found = await ripgrepFromBundle(bundled, {
      standalone: Deno.build.standalone,
      env: Deno.env.toObject(),
    });
    if (found) return found;
  }
  // A compiled server whose permissions do not allow the cache copy above (fs-mcp is read-only).
  for (const folder of await executableFolders(Deno.execPath())) {
    const beside = await ripgrepBeside(folder);
    if (beside) return beside;
  }
  const onPath = await findOnPath(`rg`);
  return onPath ? await probe(onPath, "PATH") : null;
}

/**
 * Where a copy beside the executable can be: the folder of its real file first (a symlink on PATH points
 * into the unpacked release, where the copy is), then the folder it was invoked from.
 */
export async function executableFolders(execPath: string): Promise<string[]> {
  const invoked = platform.path.dirname(execPath);
  const real = await Deno.realPath(execPath).then(platform.path.dirname, () => invoked);
  return real === invoked ? [invoked] : [real, invoked];
}

/** The ripgrep copy named {@link BESIDE_NAME} in `folder`, if it runs. */
export function ripgrepBeside(folder: string): Promise<Ripgrep | null> {
  return probe(platform.path.join(folder, BESIDE_NAME), "beside");
}

/** The ripgrep binary inside `npm:@vscode/ripgrep` for this platform, or null. */
export async function bundledPath(): Promise<string | null> {
  try {
    // Dynamic: the package throws at import on platforms it has no binary for.
    const { rgPath } = await import("@vscode/ripgrep");
    return rgPath;
  } catch {
    return null;
  }
}

/**
 * The bundled ripgrep at `bundled`: run where it is, except in a compiled server (`standalone`), whose copy
 * is extracted (extract.ts). There `bundled` names a file of the executable's virtual file system, which
 * Deno roots in the shared temp folder (`<tmp>/deno-compile-<name>/…`): running that path would run
 * whatever another user put there.
 */
export async function ripgrepFromBundle(
  bundled: string,
  options: { standalone: boolean; env: Record<string, string | undefined> },
): Promise<Ripgrep | null> {
  if (!options.standalone) {
    const found = await probe(bundled, "bundled");
    if (found) return found;
  }
  const extracted = await extractEmbedded(bundled, options.env).catch(() => null);
  return extracted ? await probe(extracted, "bundled") : null;
}

async function probe(path: string, source: Ripgrep["source"]): Promise<Ripgrep | null> {
  try {
    const { success, stdout } = await new Deno.Command(path, {
      args: ["--version"],
      stdout: "piped",
      stderr: "null",
    })
      .output();
    if (!success) return null;
    const version = new TextDecoder().decode(stdout).match(/ripgrep (\S+)/)?.[1] ?? "unknown";
    return { path, version, source };
  } catch {
    return null;
  }
}
