/**
 * The real Continue CLI (`cn`), pinned and installed with npm into the git-ignored `tests/e2e/.cn/`, run
 * headless the way a user would, but sealed off: a throwaway HOME, a local config pointing at the fake
 * model, and no route off the machine (a Node preload refuses non-loopback connections; HTTP(S)_PROXY points
 * at a dead loopback port for everything else, such as the Deno servers cn starts).
 * @module
 */
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { REPO_ROOT } from "../../../tools/catalog.ts";

/** The pinned Continue CLI. 1.5.47 runs under Node 20 (the CI machine's Node). */
export const CN_VERSION = "1.5.47";

/** Where npm installs it (git-ignored). */
export const CN_PREFIX: string = join(REPO_ROOT, "tests", "e2e", ".cn");

const CN_PACKAGE = join(CN_PREFIX, "node_modules", "@continuedev", "cli");
const GUARD = new URL("./network_guard.mjs", import.meta.url);

/** Installs the pinned `@continuedev/cli` into {@link CN_PREFIX} unless that exact version is there. */
export async function ensureCn(): Promise<string> {
  const entry = join(CN_PACKAGE, "dist", "cn.js");
  if (await installedVersion() === CN_VERSION) return entry;
  const { success, stderr } = await new Deno.Command("npm", {
    args: [
      "install",
      "--prefix",
      CN_PREFIX,
      "--no-save",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      `@continuedev/cli@${CN_VERSION}`,
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!success) throw new Error(`npm install of @continuedev/cli@${CN_VERSION} failed:\n${decode(stderr)}`);
  if (await installedVersion() !== CN_VERSION) throw new Error(`${CN_PACKAGE} is not ${CN_VERSION}`);
  return entry;
}

async function installedVersion(): Promise<string | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(join(CN_PACKAGE, "package.json"))).version;
  } catch {
    return undefined;
  }
}

/** One headless `cn -p` run. */
export interface CnRun {
  /** The workspace: cn's working directory, where it starts the MCP servers. */
  cwd: string;
  /** `apiBase` of the fake model, e.g. `http://127.0.0.1:PORT/v1/`. */
  apiBase: string;
  /** Arguments after `-p <prompt> --config <file>`: `--mcp`, `--exclude`, `--auto`. */
  args: string[];
  /** Prepended to PATH (where `<name>-mcp` live). */
  path: string;
  env?: Record<string, string>;
  prompt?: string;
  /** A hang guard, not a speed check. */
  timeoutMs?: number;
}

/** What a run printed, and the hosts the network guard refused. */
export interface CnResult {
  code: number;
  stdout: string;
  stderr: string;
  refused: string[];
}

/** Runs `cn -p` headless with a throwaway HOME and a local config for the fake model. */
export async function runCn(run: CnRun): Promise<CnResult> {
  const entry = await ensureCn();
  const home = await Deno.makeTempDir({ prefix: "continue-mcp-e2e-home-" });
  try {
    const config = join(home, "config.yaml");
    await Deno.writeTextFile(config, localConfig(run.apiBase));
    const refusedLog = join(home, "refused.log");
    await Deno.writeTextFile(refusedLog, "");
    const child = new Deno.Command("node", {
      args: [entry, "-p", run.prompt ?? "Do the task.", "--config", config, ...run.args],
      cwd: run.cwd,
      env: {
        ...await sealedEnv(home, refusedLog),
        PATH: `${run.path}${delimiter}${Deno.env.get("PATH")}`,
        ...run.env,
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), run.timeoutMs ?? 90_000);
    const { code, stdout, stderr } = await child.output().finally(() => clearTimeout(timer));
    const refused = (await Deno.readTextFile(refusedLog)).split("\n").filter(Boolean);
    return { code, stdout: decode(stdout), stderr: decode(stderr), refused };
  } finally {
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}

/** The smallest local config cn accepts: `name`, `version`, one OpenAI-compatible chat model. */
export function localConfig(apiBase: string): string {
  return [
    "name: continue-mcp-e2e",
    "version: 0.0.1",
    "schema: v1",
    "models:",
    "  - name: fake",
    "    provider: openai",
    // A gpt name: cn picks its tool set by model family (MultiEdit rather than Edit for "capable" models).
    "    model: gpt-4o",
    `    apiBase: ${apiBase}`,
    "    apiKey: dummy",
    "    roles: [chat]",
    "",
  ].join("\n");
}

/**
 * The environment of a sealed run: a throwaway HOME (no user config, sessions or hub login), Deno's real
 * cache (the servers must not re-download), the Node network guard, and proxies to a dead loopback port.
 */
export async function sealedEnv(home: string, refusedLog: string): Promise<Record<string, string>> {
  const deadProxy = `http://127.0.0.1:${deadPort()}`;
  const noProxy = "127.0.0.1,localhost,::1";
  return {
    ...Deno.env.toObject(),
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    DENO_DIR: await denoDir(),
    NODE_OPTIONS: `--import=${GUARD.href}`,
    E2E_REFUSED_LOG: refusedLog,
    HTTP_PROXY: deadProxy,
    HTTPS_PROXY: deadProxy,
    http_proxy: deadProxy,
    https_proxy: deadProxy,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
    NO_COLOR: "1",
  };
}

/** A loopback port nothing listens on: bound, then released. */
function deadPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

let cachedDenoDir: Promise<string> | undefined;

/** Deno's cache folder as this process sees it (under the real HOME), so a throwaway HOME keeps it. */
function denoDir(): Promise<string> {
  return cachedDenoDir ??= new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
    .output()
    .then(({ stdout }) => JSON.parse(decode(stdout)).denoDir as string);
}

/** The network guard's file path (for the guard's own test). */
export const GUARD_PATH: string = fileURLToPath(GUARD);

function decode(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

// `deno task e2e` installs cn first, so the test modules running in parallel never race to install it.
if (import.meta.main) {
  const entry = await ensureCn();
  Deno.stdout.writeSync(new TextEncoder().encode(`e2e: @continuedev/cli ${CN_VERSION} at ${entry}\n`));
}
