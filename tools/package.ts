/**
 * Release archives, one per target, built the same way on every runner and in the installer tests:
 *
 * - `package.ts stage --target T --out DIR [--rg FILE] [--sqruff FILE] [--deno-run]`: DIR/continue-mcp/
 *   holding `bin/` (every `<name>-mcp`, compiled for T, plus ripgrep as `continue-mcp-rg` and sqruff as
 *   `continue-mcp-sqruff` (built by tools/sqruff_build.ts), which servers find beside their real path),
 *   `continue/` (the Continue block files and rules) and `bundled.json` (each bundled tool's source,
 *   version and sha256). `--deno-run` writes `deno run` wrapper scripts instead of compiling (tests, where
 *   `deno compile` cannot download its runtime).
 * - `package.ts archive --stage DIR --target T --out OUT`: OUT/continue-mcp-T.tar.gz (.zip for Windows),
 *   version-free so `releases/latest/download/…` URLs are scriptable.
 * - `package.ts checksums OUT`: one OUT/SHA256SUMS for every file in OUT.
 * @module
 */
import { basename, join } from "node:path";
import { listServers, REPO_ROOT } from "./catalog.ts";
import { compileServer } from "./compile.ts";
import { blockYaml } from "./blocks.ts";
import { bundledPath } from "../lib/ripgrep/locate.ts";
import { readSqruffPin, sha256Hex } from "./sqruff_build.ts";

/** The folder every archive unpacks to. */
export const ARCHIVE_ROOT = "continue-mcp";

/** `continue-mcp-x86_64-unknown-linux-gnu.tar.gz`, or `.zip` for Windows targets. */
export function archiveName(target: string): string {
  return `${ARCHIVE_ROOT}-${target}${isWindowsTarget(target) ? ".zip" : ".tar.gz"}`;
}

function isWindowsTarget(target: string): boolean {
  return target.includes("windows");
}

/** Fills `out/continue-mcp/`; returns that folder. */
export async function stageRelease(options: {
  target: string;
  out: string;
  rg?: string;
  /** The standalone sqruff for the target; required unless `denoRun` (tests). */
  sqruff?: string;
  denoRun?: boolean;
}): Promise<string> {
  // Every release archive carries sqruff, so sql-mcp needs nothing installed; checked before compiling.
  if (!options.sqruff && !options.denoRun) {
    throw new Error("No sqruff for the archive: pass --sqruff FILE (tools/sqruff_build.ts builds it)");
  }
  const root = join(options.out, ARCHIVE_ROOT);
  const bin = join(root, "bin");
  const blocks = join(root, "continue", "mcpServers");
  await Deno.mkdir(bin, { recursive: true });
  await Deno.mkdir(blocks, { recursive: true });
  const exe = isWindowsTarget(options.target) ? ".exe" : "";
  const denoDir = options.denoRun ? await currentDenoDir() : "";
  for (const server of listServers()) {
    const output = join(bin, `${server.name}-mcp${exe}`);
    if (options.denoRun) {
      await Deno.writeTextFile(output, denoRunWrapper(server.permissions, server.entry, denoDir), {
        mode: 0o755,
      });
    } else if (!await compileServer(server, { output, target: options.target })) {
      throw new Error(`deno compile of ${server.name}-mcp for ${options.target} failed`);
    }
    await Deno.writeTextFile(join(blocks, `${server.name}.yaml`), blockYaml(server));
  }
  // Built natively (as the release workflow does, one runner per target), npm:@vscode/ripgrep holds the
  // target's ripgrep; a cross build needs it passed in.
  const native = options.denoRun || options.target === Deno.build.target;
  const rg = options.rg ?? (native ? await bundledPath() : null);
  if (!rg) {
    throw new Error(`No ripgrep for ${options.target} on this ${Deno.build.target} host: pass --rg FILE`);
  }
  const bundled: Record<string, BundledTool> = {};
  bundled.ripgrep = await bundle(rg, join(bin, `continue-mcp-rg${exe}`), { source: "npm:@vscode/ripgrep" });
  if (options.sqruff) {
    const pin = await readSqruffPin();
    bundled.sqruff = await bundle(options.sqruff, join(bin, `continue-mcp-sqruff${exe}`), {
      version: pin.version,
      source: `${pin.crate} (sha256 ${pin.sha256}), cargo build --release --locked, default features`,
    });
  }
  await Deno.writeTextFile(join(root, "bundled.json"), `${JSON.stringify(bundled, null, 2)}\n`);
  await copyFolder(join(REPO_ROOT, "continue", "rules"), join(root, "continue", "rules"));
  return root;
}

/** A third-party executable in the archive, as `bundled.json` lists it. */
export interface BundledTool {
  /** Path inside the archive's root folder. */
  file: string;
  version?: string;
  source: string;
  sha256: string;
}

/** Copies `from` to `to` as an executable and describes it for `bundled.json`. */
async function bundle(
  from: string,
  to: string,
  about: { version?: string; source: string },
): Promise<BundledTool> {
  await Deno.copyFile(from, to);
  await Deno.chmod(to, 0o755).catch(() => {});
  const file = `bin/${basename(to)}`;
  return { file, ...about, sha256: await sha256Hex(await Deno.readFile(to)) };
}

/** A POSIX script standing in for a compiled server: absolute deno, pinned cache, declared permissions. */
export function denoRunWrapper(permissions: string[], entry: string, denoDir: string): string {
  const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;
  const argv = [
    Deno.execPath(),
    "run",
    "--no-prompt",
    "--quiet",
    ...permissions,
    "--config",
    join(REPO_ROOT, "deno.json"),
    entry,
  ];
  return `#!/bin/sh\nDENO_DIR=${quote(denoDir)} exec ${argv.map(quote).join(" ")} "$@"\n`;
}

async function currentDenoDir(): Promise<string> {
  const { stdout } = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
    .output();
  return JSON.parse(new TextDecoder().decode(stdout)).denoDir;
}

/** Packs `stage` (the folder holding `continue-mcp/`) into `out/<archiveName(target)>`; returns its path. */
export async function archiveRelease(
  options: { stage: string; target: string; out: string },
): Promise<string> {
  await Deno.mkdir(options.out, { recursive: true });
  const archive = join(await Deno.realPath(options.out), archiveName(options.target));
  // bsdtar (Windows' and macOS' tar) writes zip when the name ends in .zip (-a).
  const args = isWindowsTarget(options.target)
    ? ["-a", "-c", "-f", archive, "-C", options.stage, ARCHIVE_ROOT]
    : ["-c", "-z", "-f", archive, "-C", options.stage, ARCHIVE_ROOT];
  // Windows' own tar.exe is bsdtar; a Git-for-Windows GNU tar earlier on PATH cannot write zip.
  const systemRoot = Deno.env.get("SystemRoot");
  const tar = isWindowsTarget(options.target) && systemRoot ? join(systemRoot, "System32", "tar.exe") : "tar";
  const { success, stderr } = await new Deno.Command(tar, {
    args,
    // macOS tar would add `._name` AppleDouble files carrying extended attributes.
    env: { COPYFILE_DISABLE: "1" },
    stderr: "piped",
  }).output();
  if (!success) throw new Error(`tar failed: ${new TextDecoder().decode(stderr)}`);
  return archive;
}

/** `sha256sum`-compatible lines for every file in `folder` but SHA256SUMS itself, sorted by name. */
export async function checksumLines(folder: string): Promise<string> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(folder)) {
    if (entry.isFile && entry.name !== "SHA256SUMS") names.push(entry.name);
  }
  const lines = [];
  for (const name of names.sort()) {
    const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(join(folder, name)));
    const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
    lines.push(`${hex}  ${name}\n`);
  }
  return lines.join("");
}

async function copyFolder(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isFile) await Deno.copyFile(join(from, entry.name), join(to, basename(entry.name)));
  }
}

if (import.meta.main) {
  const [command, ...rest] = Deno.args;
  const flags = new Map<string, string>();
  const switches = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--deno-run") switches.add(rest[i]);
    else if (["--target", "--out", "--rg", "--sqruff", "--stage"].includes(rest[i])) {
      flags.set(rest[i], rest[++i]);
    } else if (rest[i].startsWith("--")) throw new Error(`Unknown flag "${rest[i]}"`);
    else positional.push(rest[i]);
  }
  const target = flags.get("--target") ?? Deno.build.target;
  const out = flags.get("--out") ?? join(REPO_ROOT, "dist");
  const say = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
  if (command === "stage") {
    say(
      await stageRelease({
        target,
        out,
        rg: flags.get("--rg"),
        sqruff: flags.get("--sqruff"),
        denoRun: switches.has("--deno-run"),
      }),
    );
  } else if (command === "archive") {
    say(await archiveRelease({ stage: flags.get("--stage") ?? out, target, out }));
  } else if (command === "checksums" && positional.length === 1) {
    await Deno.writeTextFile(join(positional[0], "SHA256SUMS"), await checksumLines(positional[0]));
    say(join(positional[0], "SHA256SUMS"));
  } else {
    throw new Error("Usage: package.ts stage|archive|checksums (see the module comment)");
  }
}
