/**
 * Builds the standalone sqruff the release archives ship as `continue-mcp-sqruff`, from the crate pinned in
 * `tools/sqruff.json` (version, download URL, sha256 of the `.crate`, Rust toolchain):
 *
 * `deno run -A tools/sqruff_build.ts --out DIR [--crate FILE]` downloads the crate (or takes FILE), refuses
 * it unless its sha256 is the pinned one, unpacks it and runs `cargo +<rust> build --release --locked --bin
 * sqruff` with the crate's own Cargo.lock (cargo checks every dependency against the lock's checksums). It
 * prints the binary's path. Default features only: no `python`, so no jinja/python/dbt templater exists in
 * it at all. Why not the PyPI wheel: it holds a Python extension, not an executable (docs/releasing.md).
 * @module
 */
import { join } from "node:path";
import { REPO_ROOT } from "./catalog.ts";
import { platform } from "../lib/platform/mod.ts";

/** The pinned crate. */
export interface SqruffPin {
  version: string;
  crate: string;
  sha256: string;
  /** The Rust toolchain to build with (the crate's rust-version or later). */
  rust: string;
}

/** `tools/sqruff.json`. */
export async function readSqruffPin(): Promise<SqruffPin> {
  return JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "tools", "sqruff.json")));
}

/** Hex sha256 of `bytes`. */
export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The crate's bytes, from `file` or the pinned URL; throws unless they hash to the pinned sha256. */
export async function fetchCrate(pin: SqruffPin, file?: string): Promise<Uint8Array<ArrayBuffer>> {
  let bytes: Uint8Array<ArrayBuffer>;
  if (file) bytes = await Deno.readFile(file);
  else {
    const response = await fetch(pin.crate);
    if (!response.ok) throw new Error(`Download of ${pin.crate} failed: HTTP ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  }
  const actual = await sha256Hex(bytes);
  if (actual !== pin.sha256) {
    throw new Error(
      `sqruff ${pin.version} crate has sha256 ${actual}, not the pinned ${pin.sha256}; refusing it`,
    );
  }
  return bytes;
}

/** Unpacks the verified crate into `out/src`, builds it, and returns the sqruff executable's path. */
export async function buildSqruff(pin: SqruffPin, out: string, crateFile?: string): Promise<string> {
  const bytes = await fetchCrate(pin, crateFile);
  const src = join(out, "src");
  await Deno.mkdir(src, { recursive: true });
  await Deno.writeFile(join(out, `sqruff-${pin.version}.crate`), bytes);
  await run("tar", ["-x", "-z", "-f", join(out, `sqruff-${pin.version}.crate`), "-C", src]);
  const crateDir = join(src, `sqruff-${pin.version}`);
  await run("cargo", [`+${pin.rust}`, "build", "--release", "--locked", "--bin", "sqruff"], {
    cwd: crateDir,
    env: { CARGO_TARGET_DIR: join(out, "target") },
  });
  const exe = `sqruff${platform.exeSuffix}`;
  const built = join(out, "target", "release", exe);
  const version = new TextDecoder().decode(
    (await new Deno.Command(built, { args: ["--version"], stdout: "piped" }).output()).stdout,
  );
  if (!version.includes(pin.version)) {
    throw new Error(`Built sqruff says "${version.trim()}", not ${pin.version}`);
  }
  return built;
}

async function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
) {
  const { success } = await new Deno.Command(command, {
    args,
    ...options,
    stdout: "inherit",
    stderr: "inherit",
  })
    .output();
  if (!success) throw new Error(`${command} ${args.join(" ")} failed`);
}

if (import.meta.main) {
  const flag = (name: string) => {
    const i = Deno.args.indexOf(name);
    return i >= 0 ? Deno.args[i + 1] : undefined;
  };
  const out = flag("--out");
  if (!out) throw new Error("Usage: sqruff_build.ts --out DIR [--crate FILE]");
  const built = await buildSqruff(await readSqruffPin(), out, flag("--crate"));
  Deno.stdout.writeSync(new TextEncoder().encode(`${built}\n`));
}
