/** Lists files the way ripgrep sees them (`rg --files`): gitignore, `.ignore` and `.rgignore` respected. */
import type { Ripgrep } from "./locate.ts";
import { RipgrepRun } from "./run.ts";
import { globFilter } from "./glob_filter.ts";
import { ignoreRuleArgs, type IgnoreRules, keepListed } from "./ignore_rules.ts";
import { decodeFileName } from "../workspace/path_text.ts";

/** What to list. */
export interface ListFilesOptions {
  /** Folder ripgrep runs in; listed paths are relative to it. */
  cwd: string;
  /** Paths (relative to cwd) to list under; default the cwd. */
  paths?: string[];
  /** ripgrep globs, `!` negates: `*.ts`, `!**\/dist/**`. They only narrow the ignore-aware listing. */
  globs?: string[];
  /** Include hidden files and folders. */
  hidden?: boolean;
  /** Ignore .gitignore/.ignore/.rgignore rules. */
  noIgnore?: boolean;
  /** Descend at most this many folder levels (1 = only the given folder's own files). */
  maxDepth?: number;
  /** `path` (single-threaded, stable), `newest` (most recently modified first); default unsorted. */
  sort?: "path" | "newest";
  /** The cwd lies in a git repository (`ignoreScope`); false also honours .gitignore without one. Default true. */
  inGitRepo?: boolean;
  /** ripgrep may read the ignore files above the walked folder (`ignoreScope`); default false. */
  trustedParents?: boolean;
  /** The ignore rules above the walked folder that ripgrep does not read (`ignoreScope`). */
  above?: (path: string) => boolean;
  /** Print `/` separators on every OS (`--path-separator /`). */
  slashes?: boolean;
  signal?: AbortSignal;
}

/** The `rg --files` argv for `options`. */
export function listFilesArgs(options: ListFilesOptions): string[] {
  // No --no-messages: stderr names the folders it could not read (see messages.ts).
  // NUL-separated: a file name may hold a newline.
  const args = ["--files", "--null", "--no-config", ...ignoreRuleArgs(ignoreRules(options))];
  if (options.maxDepth !== undefined) args.push("--max-depth", String(options.maxDepth));
  if (options.slashes) args.push("--path-separator", "/");
  if (options.sort === "path") args.push("--sort", "path");
  if (options.sort === "newest") args.push("--sortr", "modified");
  args.push("--", ...(options.paths?.length ? options.paths : ["."]));
  return args;
}

/**
 * Streams listed paths (relative to `cwd`, `./` or Windows' `.\` dropped; bytes that are not UTF-8 as
 * U+DC80-U+DCFF, see path_text.ts); stops ripgrep when the consumer
 * stops iterating. Returns the run so callers can await `exit` for ripgrep's verdict.
 */
export function listFiles(
  rg: Ripgrep,
  options: ListFilesOptions,
): { run: RipgrepRun; paths: AsyncGenerator<string> } {
  const keep = keepListed(ignoreRules(options), options.paths);
  const run = new RipgrepRun(rg, listFilesArgs(options), { cwd: options.cwd, signal: options.signal });
  async function* paths() {
    for await (const name of run.records(0)) {
      const path = withoutDotPrefix(decodeFileName(name));
      if (keep(path)) yield path;
    }
  }
  return { run, paths: paths() };
}

function ignoreRules(options: ListFilesOptions): IgnoreRules {
  return {
    hidden: options.hidden,
    noIgnore: options.noIgnore,
    inGitRepo: options.inGitRepo ?? true,
    trustedParents: options.trustedParents,
    globs: options.globs?.length ? globFilter(options.globs) : undefined,
    above: options.above,
  };
}

/** `./src/a.ts` → `src/a.ts`; also Windows' `.\src\a.ts`, since ripgrep joins with the OS separator. */
export function withoutDotPrefix(line: string): string {
  return /^\.[/\\]/.test(line) ? line.slice(2) : line;
}
