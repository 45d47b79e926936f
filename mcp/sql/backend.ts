/**
 * Finds the SQL backend: sqruff (Rust, fast) when installed, else sqlfluff (Python, ~1 s per statement).
 * Order: `SQL_MCP_BACKEND` narrows the kind; `SQRUFF_PATH` / `SQLFLUFF_PATH`, then the sqruff the release
 * archives ship beside the servers (`continue-mcp-sqruff`), then PATH.
 * @module
 */
import { platform } from "../../lib/platform/mod.ts";
import { executableFolders } from "../../lib/ripgrep/locate.ts";

/** Which CLI formats and lints. */
export type BackendKind = "sqruff" | "sqlfluff";

/** A backend that answered `--version`. */
export interface Backend {
  kind: BackendKind;
  /** Absolute path of the executable. */
  path: string;
  /** Where it was found: its variable, beside the server's executable (a release archive), or PATH. */
  source?: BackendSource;
  /** `0.40.0`, `1.4.5`. */
  version: string;
  /** Major version: sqlfluff 1.x needs the old rule codes. */
  major: number;
  /**
   * The flags of {@link ISOLATION_FLAGS} this sqruff build lists in `--help` (sqruff added them over
   * time); sqlfluff has had `--ignore-local-config` since long before 1.0 and is not asked.
   */
  flags?: readonly string[];
}

/**
 * sqruff flags that keep a run to the server's config. `--ignore-local-config` (0.44): from 0.44 on
 * `--config` only adds to the configs sqruff discovers in its working folder, every parent (a
 * `/tmp/.sqruff` anyone can plant) and the home folder. `--library-path none` (0.40): no jinja library is
 * imported, whatever a config or an inline directive says.
 */
export const ISOLATION_FLAGS: readonly string[] = ["--ignore-local-config", "--library-path"];

/** Where a backend was found. */
export type BackendSource = "SQRUFF_PATH" | "SQLFLUFF_PATH" | "beside" | "PATH";

/** File name of the sqruff the release archives put beside the servers (next to `continue-mcp-rg`). */
export const BESIDE_SQRUFF = `continue-mcp-sqruff${platform.exeSuffix}`;

/** The environment variables discovery reads (`PATH`, `SQL_MCP_BACKEND`, `SQRUFF_PATH`, `SQLFLUFF_PATH`). */
export type BackendEnv = Record<string, string | undefined>;

const KINDS: readonly BackendKind[] = ["sqruff", "sqlfluff"];
const PATH_VARIABLE: Record<BackendKind, "SQRUFF_PATH" | "SQLFLUFF_PATH"> = {
  sqruff: "SQRUFF_PATH",
  sqlfluff: "SQLFLUFF_PATH",
};
const VERSION_TIMEOUT_MS = 10_000;

/** How to get a backend, for error messages and `deno task doctor`. */
export const INSTALL_HINT =
  "install sqruff (`pip install sqruff` or `cargo install sqruff`; the release archives ship it) or sqlfluff (`pip install sqlfluff`, " +
  "Debian/Ubuntu `apt install sqlfluff`), or set SQRUFF_PATH / SQLFLUFF_PATH to the executable";

/**
 * The backend to use, or null when none runs. Explicit paths come first, then `sqruff` and `sqlfluff` on
 * PATH; a candidate that fails `--version` is skipped. Throws on an invalid `SQL_MCP_BACKEND`.
 */
export async function findBackend(
  env: BackendEnv,
  options: { signal?: AbortSignal; execPath?: string } = {},
): Promise<Backend | null> {
  const beside = await besideCandidates(env, options.execPath ?? Deno.execPath());
  for (const candidate of backendCandidates(env, beside)) {
    const backend = await probe(candidate.kind, candidate.path, {
      env: definedEnv(env),
      signal: options.signal,
    });
    if (backend) return { ...backend, source: candidate.source };
  }
  return null;
}

/** Why no backend was found, naming what was looked for and how to install one. */
export function missingBackendMessage(env: BackendEnv): string {
  const forced = forcedKind(env);
  const kinds = forced ? [forced] : KINDS;
  const explicit = kinds.filter((kind) => env[PATH_VARIABLE[kind]]).map((kind) =>
    `${PATH_VARIABLE[kind]}="${env[PATH_VARIABLE[kind]]}" does not run`
  );
  const looked = `${kinds.join(" nor ")} found on PATH${forced ? ` (SQL_MCP_BACKEND=${forced})` : ""}`;
  return `no SQL backend: ${
    [...explicit, `${forced ? "no " : "neither "}${looked}`].join("; ")
  }; ${INSTALL_HINT}`;
}

/** One executable to try. */
export interface BackendCandidate {
  kind: BackendKind;
  path: string;
  source: BackendSource;
}

/**
 * The executables to try, best first: the variables', then `beside` (the bundled sqruff's paths, see
 * {@link besideCandidates}), then PATH's.
 */
export function backendCandidates(env: BackendEnv, beside: readonly string[] = []): BackendCandidate[] {
  const forced = forcedKind(env);
  const kinds = forced ? [forced] : KINDS;
  const candidates: BackendCandidate[] = [];
  for (const kind of kinds) {
    const explicit = env[PATH_VARIABLE[kind]]?.trim();
    if (explicit) candidates.push({ kind, path: explicit, source: PATH_VARIABLE[kind] });
  }
  if (kinds.includes("sqruff")) {
    for (const path of beside) candidates.push({ kind: "sqruff", path, source: "beside" });
  }
  for (const kind of kinds) {
    for (const path of searchPath(kind, env.PATH ?? env.Path ?? "")) {
      candidates.push({ kind, path, source: "PATH" });
    }
  }
  return candidates;
}

/**
 * The bundled sqruff beside the running executable (its real folder first: a symlink on PATH points into
 * the unpacked release), when that file exists. Not when sqruff is excluded by `SQL_MCP_BACKEND`.
 */
export async function besideCandidates(env: BackendEnv, execPath: string): Promise<string[]> {
  if ((forcedKind(env) ?? "sqruff") !== "sqruff") return [];
  const found: string[] = [];
  for (const folder of await executableFolders(execPath)) {
    const file = platform.path.join(folder, BESIDE_SQRUFF);
    if (isExecutableFile(file)) found.push(file);
  }
  return found;
}

/** Parses `sqruff 0.40.0` / `sqlfluff, version 1.4.5` into a version string and its major number. */
export function parseVersion(output: string): { version: string; major: number } | null {
  const match = output.match(/(\d+)\.(\d+)(?:\.(\d+))?[\w.+-]*/);
  return match ? { version: match[0], major: Number(match[1]) } : null;
}

function forcedKind(env: BackendEnv): BackendKind | undefined {
  const value = env.SQL_MCP_BACKEND?.trim().toLowerCase();
  if (!value) return undefined;
  if (value === "sqruff" || value === "sqlfluff") return value;
  throw new Error(`SQL_MCP_BACKEND="${env.SQL_MCP_BACKEND}" is not a backend; use sqruff or sqlfluff`);
}

function searchPath(kind: BackendKind, pathList: string): string[] {
  const names = platform.exeSuffix ? [`${kind}${platform.exeSuffix}`, kind] : [kind];
  const found: string[] = [];
  for (const dir of pathList.split(platform.listSeparator)) {
    if (!dir.trim()) continue;
    for (const name of names) {
      const file = platform.path.join(dir, name);
      if (isExecutableFile(file)) {
        found.push(file);
        break;
      }
    }
  }
  return found;
}

function isExecutableFile(file: string): boolean {
  try {
    const info = Deno.statSync(file);
    // mode is null on Windows, where the suffix decides.
    return info.isFile && (info.mode === null || (info.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}

/** The {@link ISOLATION_FLAGS} a `--help` text lists. */
export function isolationFlags(help: string): string[] {
  return ISOLATION_FLAGS.filter((flag) => new RegExp(`(^|[\\s,])${flag}\\b`, "m").test(help));
}

/** `env` without its unset entries: what a child process is given. */
export function definedEnv(env: BackendEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

async function probe(
  kind: BackendKind,
  path: string,
  options: { env: Record<string, string>; signal?: AbortSignal },
): Promise<Backend | null> {
  const { signal } = options;
  const timeout = AbortSignal.timeout(VERSION_TIMEOUT_MS);
  try {
    const command: Deno.CommandOptions = {
      env: options.env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    };
    const output = await new Deno.Command(path, { ...command, args: ["--version"] }).output();
    if (!output.success) return null;
    const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
    const parsed = parseVersion(text);
    if (!parsed) return null;
    if (kind === "sqlfluff") return { kind, path, ...parsed };
    // A build whose --help fails is run without the flags: versions before 0.40 have neither.
    const help = await new Deno.Command(path, { ...command, args: ["--help"] }).output().catch(() => null);
    const helpText = help
      ? new TextDecoder().decode(help.stdout) + new TextDecoder().decode(help.stderr)
      : "";
    return { kind, path, ...parsed, flags: isolationFlags(helpText) };
  } catch {
    return null;
  }
}
