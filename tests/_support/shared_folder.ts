/**
 * A folder other users can write in, like /tmp, built in a temp folder so tests never depend on the real
 * /tmp: `shared/` is mode 1777 and holds the victim's workspace `shared/victim/` (0700, ours). `plant` puts
 * an attacker's file or folder in it; run as root, it is handed to `nobody` (uid 65534) as a real other
 * user's would be. Unprivileged, the entry stays ours: the shared folder's mode alone must then keep it out.
 * @module
 */
import { dirname, join } from "node:path";
import { isWindows } from "../../lib/platform/mod.ts";

/** The uid of `nobody` on Linux, the attacker of these tests. */
export const NOBODY = 65534;

/** A shared folder with the victim's workspace in it; deletes itself. */
export interface SharedFolder extends AsyncDisposable {
  /** The folder others may write in (mode 1777). */
  shared: string;
  /** The victim's workspace, inside `shared`. */
  workspace: string;
  /** Whether planted entries really belong to another user (the tests run as root). */
  foreign: boolean;
  /**
   * Plants `relative` (under `shared`, `/`-separated) as the attacker: a file with `content`, or a folder
   * (mode 0777) when `relative` ends in `/`.
   */
  plant(relative: string, content?: string): Promise<string>;
}

/** Builds the shared folder; `workspace` seeds the victim's files (paths relative to it). */
export async function sharedFolder(workspace: Record<string, string> = {}): Promise<SharedFolder> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "continue-mcp-shared-" }));
  const shared = join(base, "shared");
  await Deno.mkdir(shared);
  await Deno.chmod(shared, 0o1777);
  const victim = join(shared, "victim");
  await Deno.mkdir(victim, { mode: 0o700 });
  for (const [relative, content] of Object.entries(workspace)) {
    const target = join(victim, relative);
    await Deno.mkdir(dirname(target), { recursive: true });
    if (relative.endsWith("/")) await Deno.mkdir(target, { recursive: true });
    else await Deno.writeTextFile(target, content);
  }
  const foreign = !isWindows && Deno.uid() === 0;
  return {
    shared,
    workspace: victim,
    foreign,
    async plant(relative, content = "") {
      const target = join(shared, relative);
      if (relative.endsWith("/")) {
        await Deno.mkdir(target, { recursive: true });
        await Deno.chmod(target, 0o777);
      } else {
        await Deno.mkdir(dirname(target), { recursive: true });
        await Deno.writeTextFile(target, content);
      }
      if (foreign) await chownUp(target, shared);
      return target;
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(base, { recursive: true }).catch(() => {});
    },
  };
}

/** Hands `path` and the folders between it and `shared` to nobody. */
async function chownUp(path: string, shared: string): Promise<void> {
  for (let current = path; current !== shared; current = dirname(current)) {
    await Deno.chown(current, NOBODY, NOBODY);
  }
}
