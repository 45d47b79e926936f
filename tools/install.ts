/**
 * `deno task install [--bin DIR] [--workspace DIR] [--wrappers]`: puts every server on a bin folder as
 * `<name>-mcp` and wires it into a workspace's Continue config. Compiles standalone executables when the
 * `denort` runtime can be had (downloaded, or `DENORT_BIN`); otherwise installs `deno install --global`
 * wrappers with the same names and permissions, moved into the bin folder itself. Says which it did.
 * Files are replaced by rename, so reinstalling works while Continue runs the servers; the block files name
 * each server by absolute path (Continue may not see the shell's PATH).
 * @module
 */
import { join } from "node:path";
import { listServers, REPO_ROOT, type ServerEntry } from "./catalog.ts";
import { compileServer } from "./compile.ts";
import { blockYaml, directServers } from "./blocks.ts";
import { platform } from "../lib/platform/mod.ts";
import { BESIDE_NAME, bundledPath } from "../lib/ripgrep/locate.ts";
import { defaultBinFolder, moveWrapper, replaceFile } from "./install_files.ts";

const encoder = new TextEncoder();
const say = (line: string) => Deno.stdout.writeSync(encoder.encode(`${line}\n`));

const flags = parseFlags(Deno.args);
await Deno.mkdir(flags.bin ?? defaultBinFolder(Deno.env.toObject()), { recursive: true });
// Absolute: the block files name each server by this path.
const bin = await Deno.realPath(flags.bin ?? defaultBinFolder(Deno.env.toObject()));
const workspace = flags.workspace ?? Deno.cwd();
/** Absolute path of each installed server, for its block file. */
const commands = new Map<string, string>();

let compiled = !flags.wrappers;
for (const server of listServers()) {
  const target = join(bin, `${server.name}-mcp${platform.exeSuffix}`);
  if (compiled && await compileInto(server, target)) {
    say(`compiled  ${target}`);
    commands.set(server.name, target);
    continue;
  }
  if (compiled) {
    compiled = false;
    say(
      "deno compile is unavailable here (its denort runtime cannot be downloaded; set DENORT_BIN to a local one): installing wrappers instead",
    );
  }
  const wrappers = await installWrapper(server.name, server.permissions, server.entry);
  // On Windows `deno install` writes a `.cmd` beside the sh script: that is the one Windows can start.
  const wrapper = wrappers.find((path) => path.endsWith(".cmd")) ?? wrappers[0];
  say(`wrapper   ${wrapper} (deno install --global)`);
  commands.set(server.name, wrapper);
}

if (compiled) await copyRipgrepBeside();

const blocks = join(workspace, ".continue", "mcpServers");
await Deno.mkdir(blocks, { recursive: true });
for (const server of directServers()) {
  const file = join(blocks, `${server.name}.yaml`);
  await Deno.writeTextFile(file, blockYaml(server, commands.get(server.name)));
  say(`block     ${file}`);
}
await copyRules(join(REPO_ROOT, "continue", "rules"), join(workspace, ".continue", "rules"));
say(`\ndone: ${compiled ? "standalone executables" : "deno wrappers"} in ${bin} (make sure it is on PATH)`);

/** Compiles in a temp folder first, so a failed compile leaves nothing behind in the bin folder. */
async function compileInto(server: ServerEntry, target: string): Promise<boolean> {
  const temp = await Deno.makeTempDir({ prefix: "continue-mcp-compile-" });
  try {
    const output = join(temp, `${server.name}-mcp${platform.exeSuffix}`);
    if (!await compileServer(server, { output })) return false;
    await replaceFile(output, target);
    return true;
  } finally {
    await Deno.remove(temp, { recursive: true });
  }
}

/**
 * A compiled executable cannot run the ripgrep embedded in it, and read-only servers may not copy it out:
 * put one copy beside them, where `lib/ripgrep/locate.ts` looks.
 */
async function copyRipgrepBeside(): Promise<void> {
  const bundled = await bundledPath();
  if (!bundled) return;
  const target = join(bin, BESIDE_NAME);
  await replaceFile(bundled, target);
  say(`ripgrep   ${target}`);
}

/**
 * `deno install --global` into a scratch root inside the bin folder (Deno always adds `/bin` to its root),
 * then moved into the bin folder itself. Returns the wrapper scripts' paths.
 */
async function installWrapper(name: string, permissions: string[], entry: string): Promise<string[]> {
  const root = await Deno.makeTempDir({ dir: bin, prefix: ".continue-mcp-install-" });
  try {
    // Twice: the first run fetches what the wrapper needs into Deno's cache; the second writes the wrapper
    // with --cached-only, so it starts offline and never fetches npm metadata at start.
    for (const cachedOnly of [[], ["--cached-only"]]) {
      await denoInstall(root, name, [...permissions, ...cachedOnly], entry);
    }
    return await moveWrapper(root, `${name}-mcp`, bin);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function denoInstall(root: string, name: string, permissions: string[], entry: string): Promise<void> {
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: [
      "install",
      "--global",
      "--force",
      "--quiet",
      "--root",
      root,
      "--name",
      `${name}-mcp`,
      "--no-prompt",
      ...permissions,
      "--config",
      join(REPO_ROOT, "deno.json"),
      // The wrapper gets its own copy of the config and lock beside it; ours stays untouched.
      "--frozen=false",
      entry,
    ],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!success) throw new Error(`deno install of ${name}-mcp failed`);
}

async function copyRules(from: string, to: string): Promise<void> {
  const entries: Deno.DirEntry[] = [];
  try {
    for await (const entry of Deno.readDir(from)) entries.push(entry);
  } catch {
    return; // No rules shipped yet.
  }
  await Deno.mkdir(to, { recursive: true });
  for (const entry of entries) {
    if (!entry.isFile || !entry.name.endsWith(".md")) continue;
    await Deno.copyFile(join(from, entry.name), join(to, entry.name));
    say(`rule      ${join(to, entry.name)}`);
  }
}

function parseFlags(args: string[]): { bin?: string; workspace?: string; wrappers: boolean } {
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : undefined;
  };
  return { bin: value("--bin"), workspace: value("--workspace"), wrappers: args.includes("--wrappers") };
}
