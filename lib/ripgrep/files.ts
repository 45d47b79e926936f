/** Lists files the way ripgrep sees them (`rg --files`): gitignore, `.ignore` and `.rgignore` respected. */
import type { Ripgrep } from "./locate.ts";
import { RipgrepRun } from "./run.ts";
import { decodeFileName } from "../workspace/path_text.ts";

/** What to list. */
export interface ListFilesOptions {
  /** Folder ripgrep runs in; listed paths are relative to it. */
  cwd: string;
  /** Paths (relative to cwd) to list under; default the cwd. */
  paths?: string[];
  /** ripgrep globs, `!` negates: `*.ts`, `!**\/dist/**`. */
  globs?: string[];
  /** Include hidden files and folders. */
  hidden?: boolean;
  /** Ignore .gitignore/.ignore/.rgignore rules. */
  noIgnore?: boolean;
  /** Descend at most this many folder levels (1 = only the given folder's own files). */
  maxDepth?: number;
  /** `path` (single-threaded, stable), `newest` (most recently modified first); default unsorted. */
  sort?: "path" | "newest";
  /** False: honour .gitignore outside git repositories too (`--no-require-git`). Default true. */
  requireGit?: boolean;
  /** Print `/` separators on every OS (`--path-separator /`). */
  slashes?: boolean;
  signal?: AbortSignal;
}

/** The `rg --files` argv for `options`. */
export function listFilesArgs(options: ListFilesOptions): string[] {
  // No --no-messages: stderr names the folders it could not read (see messages.ts).
  // NUL-separated: a file name may hold a newline.
  const args = ["--files", "--null", "--no-config"];
  if (options.hidden) args.push("--hidden");
  if (options.noIgnore) args.push("--no-ignore");
  if (options.maxDepth !== undefined) args.push("--max-depth", String(options.maxDepth));
  if (options.requireGit === false) args.push("--no-require-git");
  if (options.slashes) args.push("--path-separator", "/");
  if (options.sort === "path") args.push("--sort", "path");
  if (options.sort === "newest") args.push("--sortr", "modified");
  for (const glob of options.globs ?? []) args.push("--glob", glob);
  // Never list the repository's own database, even with `hidden`.
  if (options.hidden) args.push("--glob", "!.git/");
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
  const run = new RipgrepRun(rg, listFilesArgs(options), { cwd: options.cwd, signal: options.signal });
  async function* paths() {
    for await (const name of run.records(0)) yield withoutDotPrefix(decodeFileName(name));
  }
  return { run, paths: paths() };
}

/** `./src/a.ts` → `src/a.ts`; also Windows' `.\src\a.ts`, since ripgrep joins with the OS separator. */
export function withoutDotPrefix(line: string): string {
  return /^\.[/\\]/.test(line) ? line.slice(2) : line;
}
