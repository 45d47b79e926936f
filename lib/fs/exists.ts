/** Whether something (a file, a folder, even a dangling link) is at `path`. */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The index of the first of `paths` that exists (as {@link pathExists} judges it), or -1. All are looked
 * up at once: each async lstat is a trip through Deno's blocking thread pool, and a walk up a folder's
 * ancestors (is there a `.git`?) one at a time paid that trip once per level.
 */
export async function firstExisting(paths: readonly string[]): Promise<number> {
  const found = await Promise.all(paths.map(pathExists));
  return found.indexOf(true);
}
