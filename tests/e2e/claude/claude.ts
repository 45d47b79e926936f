/**
 * The real Claude Code CLI (npm `@anthropic-ai/claude-code`, a native binary in a per-platform package),
 * pinned and installed with npm into the git-ignored `tests/e2e/.claude-code/`, run as a user would but
 * sealed off: a throwaway HOME, its temp and runtime folders inside the test's own folder, its non-essential
 * traffic off, and every run under strace so a connection off loopback fails the test (see network.ts).
 * @module
 */
import { delimiter, join } from "node:path";
import { REPO_ROOT } from "../../../tools/catalog.ts";
import { traceArgs, tracedAddresses } from "./network.ts";

/** The pinned Claude Code. Its npm package says Node ≥ 22, but it only copies a native binary into place. */
export const CLAUDE_VERSION = "2.1.332";

/** Where npm installs it (git-ignored). */
export const CLAUDE_PREFIX: string = join(REPO_ROOT, "tests", "e2e", ".claude-code");

const PACKAGE = join(CLAUDE_PREFIX, "node_modules", "@anthropic-ai", "claude-code");

/** Installs the pinned Claude Code into {@link CLAUDE_PREFIX} unless that exact version is there. */
export async function ensureClaude(): Promise<string> {
  const binary = join(PACKAGE, "bin", "claude.exe");
  if (await installedVersion() === CLAUDE_VERSION) return binary;
  const { success, stderr } = await new Deno.Command("npm", {
    args: [
      "install",
      "--prefix",
      CLAUDE_PREFIX,
      "--no-save",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      `@anthropic-ai/claude-code@${CLAUDE_VERSION}`,
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  const why = new TextDecoder().decode(stderr);
  if (!success) throw new Error(`npm install of @anthropic-ai/claude-code@${CLAUDE_VERSION} failed:\n${why}`);
  if (await installedVersion() !== CLAUDE_VERSION) throw new Error(`${PACKAGE} is not ${CLAUDE_VERSION}`);
  return binary;
}

async function installedVersion(): Promise<string | undefined> {
  try {
    // The postinstall step copies the platform's binary over a small placeholder: check it happened.
    if ((await Deno.stat(join(PACKAGE, "bin", "claude.exe"))).size < 1_000_000) return undefined;
    return JSON.parse(await Deno.readTextFile(join(PACKAGE, "package.json"))).version;
  } catch {
    return undefined;
  }
}

/** The folders of one sealed Claude Code user, all inside one temp folder. */
export interface ClaudeHome extends AsyncDisposable {
  /** The temp folder holding the rest. */
  root: string;
  /** HOME: `~/.claude.json`, `~/.claude/settings.json`, `~/.config/continue-mcp/http-token-<port>`. */
  home: string;
  /** CLAUDE_CODE_TMPDIR and TMPDIR. */
  tmp: string;
  /** XDG_RUNTIME_DIR (Claude Code puts a socket folder there). */
  runtime: string;
}

/** Makes the folders of a throwaway Claude Code user. */
export async function claudeHome(): Promise<ClaudeHome> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "continue-mcp-claude-e2e-" }));
  const [home, tmp, runtime] = ["home", "tmp", "run"].map((name) => join(root, name));
  for (const dir of [home, tmp, runtime]) await Deno.mkdir(dir, { mode: 0o700 });
  return {
    root,
    home,
    tmp,
    runtime,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }).catch(() => {}),
  };
}

/** One `claude` command. */
export interface ClaudeCommand {
  user: ClaudeHome;
  /** The project folder: Claude Code's working directory, where it starts stdio servers. */
  cwd: string;
  args: string[];
  /** Prepended to PATH (where `<name>-mcp` live). */
  path: string;
  /** `http://127.0.0.1:PORT` of the fake Messages API (ANTHROPIC_BASE_URL). */
  apiBase?: string;
  env?: Record<string, string>;
  /** A hang guard, not a speed check. */
  timeoutMs?: number;
}

/** What a command printed, and every address it or its children connected or sent to (`host:port`). */
export interface ClaudeResult {
  code: number;
  stdout: string;
  stderr: string;
  addresses: string[];
}

/** Runs `claude <args>` under strace with the sealed environment of `user`. */
export async function runClaude(command: ClaudeCommand): Promise<ClaudeResult> {
  const binary = await ensureClaude();
  const trace = join(command.user.root, `strace-${crypto.randomUUID()}.txt`);
  const child = new Deno.Command("strace", {
    args: [...traceArgs(trace), binary, ...command.args],
    cwd: command.cwd,
    env: {
      ...await sealedEnv(command.user, command.apiBase),
      PATH: `${command.path}${delimiter}${Deno.env.get("PATH")}`,
      ...command.env,
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), command.timeoutMs ?? 120_000);
  const { code, stdout, stderr } = await child.output().finally(() => clearTimeout(timer));
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code, stdout: decode(stdout), stderr: decode(stderr), addresses: await tracedAddresses(trace) };
}

/** Names that must not reach Claude Code or the servers it starts from the developer's own environment. */
const DROPPED = /^(ANTHROPIC_|CLAUDE|MCP_|XDG_|HTTPS?_PROXY$|NO_PROXY$)/i;

/**
 * The environment of a sealed run: a throwaway HOME (no user settings, login or sessions), Claude Code's
 * temp and runtime folders inside it, its non-essential traffic (update checks, telemetry, error reports)
 * off, every MCP server connected before the first request, a dummy API key for the fake API, Deno's real cache (the servers must not re-download) and no
 * Deno update check.
 */
export async function sealedEnv(user: ClaudeHome, apiBase?: string): Promise<Record<string, string>> {
  const inherited = Object.entries(Deno.env.toObject()).filter(([name]) => !DROPPED.test(name));
  return {
    ...Object.fromEntries(inherited),
    HOME: user.home,
    XDG_CONFIG_HOME: join(user.home, ".config"),
    XDG_RUNTIME_DIR: user.runtime,
    CLAUDE_CODE_TMPDIR: user.tmp,
    TMPDIR: user.tmp,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    // `claude -p` waits only ~2.5 s for MCP servers (3 connecting at a time) before its first request; a
    // server connected later joins mid-run, so under load the first tools[] missed servers. This makes it
    // wait until every server is connected (60 s at most: a hang guard). Seen in 2.1.332's debug log
    // ("[engine] turn 1 start"); not in Claude Code's public docs (MCP_TIMEOUT does not do it).
    CLAUDE_CODE_MCP_STARTUP_WAIT_MS: "60000",
    DENO_NO_UPDATE_CHECK: "1",
    DENO_DIR: await denoDir(),
    NO_COLOR: "1",
    ...(apiBase ? { ANTHROPIC_BASE_URL: apiBase, ANTHROPIC_API_KEY: "e2e-dummy-key" } : {}),
  };
}

let cachedDenoDir: Promise<string> | undefined;

/** Deno's cache folder as this process sees it (under the real HOME), so a throwaway HOME keeps it. */
function denoDir(): Promise<string> {
  return cachedDenoDir ??= new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
    .output()
    .then(({ stdout }) => JSON.parse(new TextDecoder().decode(stdout)).denoDir as string);
}

// `deno task e2e:claude` installs Claude Code first, so the test modules running in parallel never race.
if (import.meta.main) {
  const binary = await ensureClaude();
  Deno.stdout.writeSync(
    new TextEncoder().encode(`e2e: @anthropic-ai/claude-code ${CLAUDE_VERSION} at ${binary}\n`),
  );
}
