/**
 * `deno task bench [name...]`: runs every `bench/<name>.ts` (or the named ones) in its own process, one
 * after the other so they do not compete for the CPU, and prints their tables. Each prints ratios
 * against a baseline measured in the same run; results are kept in docs/benchmarks.md.
 * @module
 */
import { join } from "node:path";
import { REPO_ROOT } from "../tools/catalog.ts";

const only = Deno.args;
const names: string[] = [];
for await (const entry of Deno.readDir(join(REPO_ROOT, "bench"))) {
  const name = entry.name.replace(/\.ts$/, "");
  if (!entry.isFile || !entry.name.endsWith(".ts") || name === "main") continue;
  if (only.length === 0 || only.includes(name)) names.push(name);
}
let failed = 0;
for (const name of names.sort()) {
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "-A", join(REPO_ROOT, "bench", `${name}.ts`)],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!success) failed++;
}
Deno.exit(failed ? 1 : 0);
