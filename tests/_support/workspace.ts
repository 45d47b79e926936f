/** Fixture workspaces: real temp folders seeded from an object literal, removed on dispose. */
import { dirname, join } from "node:path";

/** A file's content, or a symlink to create. */
export type FixtureEntry = string | Uint8Array | { symlink: string };

/** A temp folder (its real path) that deletes itself. */
export interface TempWorkspace extends AsyncDisposable {
  path: string;
  /** Absolute path of a fixture entry. */
  join(...parts: string[]): string;
}

/** Creates a temp folder holding `files` (paths with `/`; a trailing `/` makes an empty folder). */
export async function tempWorkspace(files: Record<string, FixtureEntry> = {}): Promise<TempWorkspace> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "continue-mcp-test-" }));
  await seed(path, files);
  return {
    path,
    join: (...parts) => join(path, ...parts),
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}

/** Writes fixture entries under `root`. */
export async function seed(root: string, files: Record<string, FixtureEntry>): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const target = join(root, relative);
    if (relative.endsWith("/")) {
      await Deno.mkdir(target, { recursive: true });
      continue;
    }
    await Deno.mkdir(dirname(target), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(target, content);
    else if (content instanceof Uint8Array) await Deno.writeFile(target, content);
    else await Deno.symlink(content.symlink, target);
  }
}
