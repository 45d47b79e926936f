/**
 * `deno run -A tools/smoke.ts --bin DIR [--workspace DIR] [--via-symlinks] [--server NAME...]`: the release
 * smoke test. Starts
 * every installed `<name>-mcp` in DIR the way Continue would, with no Deno and no ripgrep on its PATH and an
 * empty cache folder, and checks `initialize`, `tools/list` and the server's smoke call. `--via-symlinks`
 * starts each through a symlink in another folder, as a user linking into `~/.local/bin` would.
 * Exits non-zero when any server fails.
 * @module
 */
import { basename, join } from "node:path";
import { listServers, type ServerEntry } from "./catalog.ts";
import { inspectServer } from "./inspect.ts";
import { findOnPath } from "../lib/platform/which.ts";
import { platform } from "../lib/platform/mod.ts";

/** Tools a released binary must not lean on. */
export const FORBIDDEN_ON_PATH = ["deno", "rg"];

/** One server's smoke result. */
export interface SmokeResult {
  name: string;
  ok: boolean;
  detail: string;
}

/**
 * `pathValue` with `names` (`deno`, `rg`, with Windows suffixes) hidden. A folder holding one of them is
 * replaced by a shadow folder under `shadowRoot` linking everything else in it (so `/usr/bin/rg` goes
 * but `/usr/bin/bash` stays); where links cannot be made (Windows without the privilege) it is dropped.
 */
export async function pathWithout(
  pathValue: string,
  shadowRoot: string,
  names: string[] = FORBIDDEN_ON_PATH,
  pathExt?: string,
): Promise<string> {
  const kept: string[] = [];
  const dirs = pathValue.split(platform.listSeparator).filter(Boolean);
  for (const [index, dir] of dirs.entries()) {
    const env = { PATH: dir, PATHEXT: pathExt };
    const held = (await Promise.all(names.map((name) => findOnPath(name, env)))).filter((found) =>
      found !== null
    );
    if (held.length === 0) {
      kept.push(dir);
      continue;
    }
    const shadow = join(shadowRoot, String(index));
    if (await linkAllBut(dir, shadow, held.map((path) => basename(path)))) kept.push(shadow);
  }
  return kept.join(platform.listSeparator);
}

async function linkAllBut(dir: string, shadow: string, hidden: string[]): Promise<boolean> {
  try {
    await Deno.mkdir(shadow, { recursive: true });
    for await (const entry of Deno.readDir(dir)) {
      if (hidden.includes(entry.name)) continue;
      await Deno.symlink(join(dir, entry.name), join(shadow, entry.name));
    }
    return true;
  } catch {
    return false;
  }
}

/** Runs every server's smoke check against the executables in `options.bin`. */
export async function smokeInstalled(options: {
  bin: string;
  workspace: string;
  viaSymlinks?: boolean;
  servers?: ServerEntry[];
}): Promise<SmokeResult[]> {
  const env = Deno.env.toObject();
  delete env.RG_PATH;
  const shadowRoot = await Deno.makeTempDir({ prefix: "continue-mcp-path-" });
  env.PATH = await pathWithout(env.PATH ?? env.Path ?? "", shadowRoot, FORBIDDEN_ON_PATH, env.PATHEXT);
  delete env.Path;
  for (const name of FORBIDDEN_ON_PATH) {
    const found = await findOnPath(name, { PATH: env.PATH, PATHEXT: env.PATHEXT });
    if (found) throw new Error(`Cannot hide "${name}" from the servers: still found at "${found}"`);
  }
  const links = options.viaSymlinks ? await Deno.makeTempDir({ prefix: "continue-mcp-links-" }) : undefined;
  const results: SmokeResult[] = [];
  for (const server of options.servers ?? listServers()) {
    const file = `${server.name}-mcp${platform.exeSuffix}`;
    let command = join(options.bin, file);
    if (links) {
      await Deno.symlink(await Deno.realPath(command), join(links, file));
      command = join(links, file);
    }
    // A fresh cache folder per server: no earlier ripgrep extraction can help it.
    const cache = await Deno.makeTempDir({ prefix: "continue-mcp-smoke-cache-" });
    try {
      const seen = await inspectServer(server, {
        cwd: options.workspace,
        command,
        env: { ...env, XDG_CACHE_HOME: cache },
        timeoutMs: 60_000,
      });
      const ok = seen.ok && seen.tools.length > 0;
      const detail = seen.error ??
        `${seen.tools.length} tools, ${Math.round(seen.startupMs)} ms` +
          (seen.smoke
            ? `, ${seen.smoke.tool} → ${seen.smoke.text.replaceAll(/\s+/g, " ").slice(0, 80)}`
            : "");
      results.push({ name: `${server.name}-mcp`, ok, detail });
    } finally {
      await Deno.remove(cache, { recursive: true }).catch(() => {});
    }
  }
  if (links) await Deno.remove(links, { recursive: true });
  await Deno.remove(shadowRoot, { recursive: true });
  return results;
}

if (import.meta.main) {
  const args = [...Deno.args];
  const take = (flag: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args.splice(at, 2)[1] : undefined;
  };
  const bin = take("--bin");
  const workspace = take("--workspace") ?? Deno.cwd();
  const only: string[] = [];
  for (let name = take("--server"); name; name = take("--server")) only.push(name);
  const viaSymlinks = args.includes("--via-symlinks");
  const unknown = args.filter((arg) => arg !== "--via-symlinks");
  const servers = listServers().filter((server) => only.length === 0 || only.includes(server.name));
  if (servers.length < only.length) {
    unknown.push(...only.filter((name) => !servers.some((s) => s.name === name)));
  }
  if (!bin || unknown.length) {
    throw new Error(
      `Usage: smoke.ts --bin DIR [--workspace DIR] [--via-symlinks] [--server NAME...]${
        unknown.length ? ` (unknown: ${unknown.join(" ")})` : ""
      }`,
    );
  }
  const results = await smokeInstalled({ bin, workspace, viaSymlinks, servers });
  const write = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
  for (const result of results) {
    write(`${result.ok ? "ok  " : "FAIL"} ${result.name.padEnd(12)} ${result.detail}`);
  }
  const failed = results.filter((result) => !result.ok).length;
  write(
    failed ? `${failed} server(s) failed` : `all ${results.length} servers ok with no deno or rg on PATH`,
  );
  if (failed) Deno.exit(1);
}
