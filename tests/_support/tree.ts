/** Every entry under a folder with its content: equal snapshots before and after mean nothing was written. */
import { join } from "node:path";

/** `relative path → content` (folders `/`, symlinks `-> target`), sorted. */
export async function treeSnapshot(root: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  const walk = async (dir: string, prefix: string) => {
    const entries = [];
    for await (const entry of Deno.readDir(dir)) entries.push(entry);
    for (const entry of entries.sort((a, b) => a.name < b.name ? -1 : 1)) {
      const path = join(dir, entry.name);
      const shown = `${prefix}${entry.name}`;
      if (entry.isSymlink) found[shown] = `-> ${await Deno.readLink(path)}`;
      else if (entry.isDirectory) {
        found[`${shown}/`] = "";
        await walk(path, `${shown}/`);
      } else found[shown] = await Deno.readTextFile(path);
    }
  };
  await walk(root, "");
  return found;
}
