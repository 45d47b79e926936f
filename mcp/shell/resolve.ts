/** Where a job runs: its shell, found on PATH, and its working folder, which must lie in the workspace. */
import { ToolError } from "../../lib/mcp/errors.ts";
import { processRules } from "../../lib/platform/mod.ts";
import { findOnPath } from "../../lib/platform/which.ts";
import { capQuote } from "../../lib/text/cap.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";

/** Shells a caller may name; each is looked up on PATH. */
export const SHELLS = ["bash", "sh", "zsh", "pwsh", "powershell", "cmd"] as const;

/** One of {@link SHELLS}. */
export type ShellChoice = typeof SHELLS[number];

/** Finds shells on the server's PATH, each once. */
export class ShellFinder {
  #env: { PATH?: string; PATHEXT?: string };
  #shells = new Map<string, Promise<string | null>>();

  constructor(serverEnv: Record<string, string>) {
    this.#env = { PATH: serverEnv.PATH ?? serverEnv.Path, PATHEXT: serverEnv.PATHEXT };
  }

  /** The path of the shell `choice` (default: the OS's preferred one); `unavailable` when missing. */
  async resolve(choice: ShellChoice | undefined): Promise<string> {
    const lookup = (name: string) => {
      if (!this.#shells.has(name)) this.#shells.set(name, findOnPath(name, this.#env));
      return this.#shells.get(name)!;
    };
    const candidates = choice ? [choice] : processRules.defaultShells;
    for (const name of candidates) {
      const found = await lookup(name);
      if (found) return found;
    }
    const found = await Promise.all(SHELLS.map(async (name) => (await lookup(name)) ? name : undefined));
    const available = found.filter(Boolean).join(", ") || "none";
    const wanted = choice
      ? `shell "${choice}"`
      : `a default shell (${processRules.defaultShells.join(", ")})`;
    throw new ToolError("unavailable", `Cannot find ${wanted} on PATH; available: ${available}`);
  }
}

/** The real path of folder `cwd` (default: the workspace root); not_found or invalid_argument otherwise. */
export async function resolveCwd(workspace: Workspace, cwd: string | undefined): Promise<string> {
  const real = await workspace.resolveInside(cwd ?? ".");
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(real);
  } catch {
    throw new ToolError(
      "not_found",
      `Cannot run in "${capQuote(cwd ?? ".")}": no such folder in the workspace`,
    );
  }
  if (!info.isDirectory) {
    throw new ToolError("invalid_argument", `Cannot run in "${capQuote(cwd ?? ".")}": it is a file`);
  }
  return real;
}
