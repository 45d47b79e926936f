/** A cheap, disposable copy of this repository for tests that generate into it: source only, ~1.5 MB. */
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { REPO_ROOT } from "../../tools/catalog.ts";
import { type TempWorkspace, tempWorkspace } from "../_support/workspace.ts";

/**
 * What `deno task new`, its tests, fmt, lint, doctor, sync and the gateway need; never tests/mcp/ or docs/.
 * Of the servers only the gateway, shell (the gateway's main.ts imports its filter process), sql (doctor
 * imports its backend finder) and hello: doctor and sync start every server they find, each costs seconds. The gateway's
 * example config still names the others; it reports them as failed and serves the rest.
 */
const ENTRIES = [
  "deno.json",
  "deno.lock",
  "lib",
  "mcp/gateway",
  "mcp/shell",
  "mcp/hello",
  "mcp/sql",
  "tools",
  "templates",
  "tests/_support",
  ".continue",
  "continue",
  "skills",
  "README.md",
];

/** A temp folder holding a copy of the repository's source; removed on dispose. */
export async function repoCopy(): Promise<TempWorkspace> {
  const copy = await tempWorkspace();
  for (const entry of ENTRIES) {
    await Deno.mkdir(join(copy.path, entry, ".."), { recursive: true });
    await cp(join(REPO_ROOT, entry), join(copy.path, entry), { recursive: true });
  }
  return copy;
}

/** Every file under `root` (paths relative to it, `/`-separated) with its text: to prove nothing changed. */
export async function snapshotTree(root: string, under = ""): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const entry of Deno.readDir(join(root, under))) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory) { for (const [p, t] of await snapshotTree(root, path)) files.set(p, t); }
    else if (entry.isFile) files.set(path, await Deno.readTextFile(join(root, path)));
  }
  return files;
}
