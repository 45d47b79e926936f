/**
 * File moves for `deno task install`: where the bin folder is, replacing an executable that may be running,
 * and moving a `deno install` wrapper from the root Deno insists on into the chosen bin folder.
 * @module
 */
import { basename, dirname, join } from "node:path";

/** `--bin`, else `$DENO_INSTALL_ROOT/bin` (the root itself when it already is a `bin` folder), else `~/.deno/bin`. */
export function defaultBinFolder(env: Record<string, string | undefined>): string {
  const root = env.DENO_INSTALL_ROOT;
  if (root) return basename(root) === "bin" ? root : join(root, "bin");
  return join(env.HOME ?? env.USERPROFILE ?? ".", ".deno", "bin");
}

/**
 * Puts `source` at `target` so that a server running from `target` keeps running: a copy beside the target,
 * then a rename over it (writing into a running executable fails with "Text file busy"). Where a rename over
 * a running file is refused (Windows), the running one is renamed aside first; the next install removes it.
 */
export async function replaceFile(source: string, target: string, mode = 0o755): Promise<void> {
  const folder = dirname(target);
  const name = basename(target);
  await removeLeftovers(folder, name);
  const temp = join(folder, `.${name}.new-${Deno.pid}`);
  await Deno.copyFile(source, temp);
  await Deno.chmod(temp, mode).catch(() => {}); // No modes on Windows.
  try {
    await Deno.rename(temp, target);
  } catch {
    await Deno.rename(target, join(folder, `.${name}.old-${Deno.pid}-${Date.now()}`));
    await Deno.rename(temp, target);
  }
}

/** Removes `.<name>.old-*` copies that earlier installs moved aside, where their servers have exited. */
async function removeLeftovers(folder: string, name: string): Promise<void> {
  for await (const entry of Deno.readDir(folder)) {
    if (entry.name.startsWith(`.${name}.old-`)) await Deno.remove(join(folder, entry.name)).catch(() => {});
  }
}

/**
 * Moves what `deno install --root <root>` wrote for `name` (the `name` script, `name.cmd` on Windows, and
 * its `.name/` config folder) from `<root>/bin` into `bin`, rewriting the config path the scripts name.
 * Returns the wrappers' paths in `bin`.
 */
export async function moveWrapper(root: string, name: string, bin: string): Promise<string[]> {
  const from = join(root, "bin");
  const moved: string[] = [];
  const configFolder = join(bin, `.${name}`);
  await Deno.remove(configFolder, { recursive: true }).catch(() => {});
  await Deno.rename(join(from, `.${name}`), configFolder).catch(async (error) => {
    if (!(error instanceof Deno.errors.NotFound)) await copyFolder(join(from, `.${name}`), configFolder);
  });
  for (const script of [name, `${name}.cmd`]) {
    let text: string;
    try {
      text = await Deno.readTextFile(join(from, script));
    } catch {
      continue; // No .cmd off Windows.
    }
    const rewritten = join(from, `${script}.rewritten`);
    await Deno.writeTextFile(rewritten, text.replaceAll(join(from, `.${name}`), configFolder));
    await replaceFile(rewritten, join(bin, script));
    moved.push(join(bin, script));
  }
  return moved;
}

async function copyFolder(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyFolder(join(from, entry.name), join(to, entry.name));
    else await Deno.copyFile(join(from, entry.name), join(to, entry.name));
  }
}
