/** Resolves a path to its real location, following symlinks, even when its last parts do not exist yet. */
import { platform } from "../platform/mod.ts";

const MAX_LINKS = 40;

/**
 * The real path of `absolute`: symlinks followed, `..` resolved. For a path that does not exist yet,
 * its nearest existing parent is resolved and the missing parts are appended, so a file about to be
 * created under a symlinked folder is judged by where it would really land. A dangling symlink is
 * followed to where its target would be created.
 */
export async function realResolve(absolute: string, hops = 0): Promise<string> {
  const { path } = platform;
  if (hops > MAX_LINKS) throw new Deno.errors.FilesystemLoop(`Too many symlinks at ${absolute}`);
  try {
    return platform.normalizeReal(await Deno.realPath(absolute));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const link = await lstatOrNull(absolute);
  if (link?.isSymlink) {
    const target = await Deno.readLink(absolute);
    return realResolve(path.resolve(path.dirname(absolute), target), hops + 1);
  }
  const parent = path.dirname(absolute);
  if (parent === absolute) return absolute;
  return path.join(await realResolve(parent, hops), path.basename(absolute));
}

async function lstatOrNull(file: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(file);
  } catch {
    return null;
  }
}
