/**
 * Runs one third-party client command (MCP Inspector CLI, mcporter) against one of our servers started over
 * stdio with `deno run`, exactly as a user would type it, and returns what the client printed.
 * @module
 */
import { join } from "node:path";
import { listServers, REPO_ROOT, runArgs } from "../../../tools/catalog.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { CLIENT_ENTRIES } from "./install.ts";

/** What a client printed and how it exited. */
export interface ClientOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Where the client runs: the workspace (the server's cwd), a throwaway HOME, and extra server env. */
export interface ClientPlace {
  cwd: string;
  home: string;
  serverEnv?: Record<string, string>;
}

/** `deno run <permissions> mcp/<name>/main.ts`: the server command both clients spawn. */
export function serverCommand(name: string): string[] {
  const server = listServers().find((entry) => entry.name === name);
  if (!server) throw new Error(`No server "${name}" under mcp/`);
  return [Deno.execPath(), ...runArgs(server)];
}

/** `inspector --cli <server command> -e K=V --cwd <ws> <args>`: `--method tools/list`, `tools/call`. */
export async function runInspector(name: string, args: string[], place: ClientPlace): Promise<ClientOutput> {
  const env = Object.entries(await serverEnv(place)).flatMap(([key, value]) => ["-e", `${key}=${value}`]);
  const argv = ["--cli", ...serverCommand(name), ...env, "--cwd", place.cwd, ...args];
  return await runClient(CLIENT_ENTRIES.inspector, argv, place);
}

/** `mcporter <list|call> --stdio deno --stdio-arg … --cwd <ws> <args>`. */
export async function runMcporter(
  name: string,
  subcommand: "list" | "call",
  args: string[],
  place: ClientPlace,
): Promise<ClientOutput> {
  const [command, ...commandArgs] = serverCommand(name);
  const stdio = ["--stdio", command, ...commandArgs.flatMap((arg) => ["--stdio-arg", arg])];
  const env = Object.entries(await serverEnv(place)).flatMap(([key, value]) => ["--env", `${key}=${value}`]);
  return runClient(
    CLIENT_ENTRIES.mcporter,
    [subcommand, ...stdio, ...env, "--cwd", place.cwd, ...args],
    place,
  );
}

let denoDir: Promise<string> | undefined;

/**
 * The clients hand a server only a few variables (PATH, HOME, ...) plus those named on their command line:
 * name Deno's cache, or under the throwaway HOME the server would fetch every module again.
 */
async function serverEnv(place: ClientPlace): Promise<Record<string, string>> {
  return { DENO_DIR: await (denoDir ??= cachedDenoDir()), ...place.serverEnv };
}

async function runClient(entry: string, argv: string[], place: ClientPlace): Promise<ClientOutput> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--quiet", "-A", entry, ...argv],
    cwd: place.cwd,
    env: {
      // A throwaway HOME: the clients keep catalogs and caches there. Our servers keep Deno's cache.
      HOME: place.home,
      USERPROFILE: place.home,
      XDG_CONFIG_HOME: join(place.home, ".config"),
      DENO_DIR: await (denoDir ??= cachedDenoDir()),
      NO_COLOR: "1",
      DENO_NO_UPDATE_CHECK: "1",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(90_000),
  }).output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

/** The Deno cache this test runs from, so the servers start without downloading anything again. */
async function cachedDenoDir(): Promise<string> {
  const set = Deno.env.get("DENO_DIR");
  if (set) return set;
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
    .output();
  return JSON.parse(new TextDecoder().decode(info.stdout)).denoDir;
}

/** A seeded workspace and a throwaway HOME beside it, removed on dispose. */
export async function openPlace(
  files: Record<string, string>,
  serverEnv?: (workspace: string) => Record<string, string>,
): Promise<ClientPlace & AsyncDisposable> {
  const workspace = await tempWorkspace(files);
  const home = await Deno.makeTempDir({ prefix: "continue-mcp-e2e-home-" });
  return {
    cwd: workspace.path,
    home,
    serverEnv: serverEnv?.(workspace.path),
    async [Symbol.asyncDispose]() {
      await Deno.remove(home, { recursive: true }).catch(() => {});
      await workspace[Symbol.asyncDispose]();
    },
  };
}

/** The tool names in `mcp/<name>/tools.json`: what tools/list must show through any client. */
export async function snapshotToolNames(name: string): Promise<string[]> {
  const file = join(REPO_ROOT, "mcp", name, "tools.json");
  const tools: { name: string }[] = JSON.parse(await Deno.readTextFile(file));
  return tools.map((tool) => tool.name);
}
