/**
 * ripgrep's stderr, sorted: the paths it could not read for lack of permission, the files it gave up on
 * (PCRE2's match limit, an I/O error), and its other messages. Searches and listings keep going past such a
 * path; these say what was left out.
 * @module
 */
import { withoutDotPrefix } from "./files.ts";

/** What ripgrep said on stderr. */
export interface RipgrepMessages {
  /** Paths ripgrep could not open for lack of permission, as it printed them (`./` dropped). */
  denied: string[];
  /** Every other message, `rg: ` dropped. */
  other: string[];
  /** Of the other messages, those naming a path ripgrep gave up on, and why. */
  failed: FailedPath[];
}

/** A path ripgrep could not search to its end. */
export interface FailedPath {
  /** As ripgrep printed it (`./` dropped). */
  path: string;
  /** ripgrep's words: `PCRE2: error matching: match limit exceeded`. */
  reason: string;
}

// POSIX EACCES/EPERM, Windows ERROR_ACCESS_DENIED.
// The walker words it `rg: ./x: IO error for operation on ./x: Permission denied (os error 13)`.
const DENIED =
  /^rg: (.+?): (?:IO error for operation on .+: )?(?:Permission denied \(os error 13\)|Operation not permitted \(os error 1\)|Access is denied\. \(os error 5\))$/;

// `rg: ./a.txt: PCRE2: error matching: match limit exceeded` (also depth and heap limits): the file is
// abandoned at that line, with exit code 2 and the other files' results intact. The path is greedy: a PCRE2
// message never holds ": PCRE2: ", a file name may.
const PCRE2_FAILED = /^rg: (.+): (PCRE2: error matching: .+)$/;
// `rg: ./x: Input/output error (os error 5)`, as the walker or the searcher words it.
const IO_FAILED = /^rg: (.+?): (?:IO error for operation on .+: )?([^:]+ \(os error \d+\))$/;

/** Sorts ripgrep's stderr lines into unreadable paths, abandoned files and other messages. */
export function parseMessages(stderr: string): RipgrepMessages {
  const denied: string[] = [];
  const other: string[] = [];
  const failed: FailedPath[] = [];
  for (const line of stderr.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const match = line.match(DENIED);
    if (match) {
      denied.push(withoutDotPrefix(match[1]));
      continue;
    }
    other.push(line.replace(/^rg: /, ""));
    const gaveUp = line.match(PCRE2_FAILED) ?? line.match(IO_FAILED);
    if (gaveUp) failed.push({ path: withoutDotPrefix(gaveUp[1]), reason: gaveUp[2] });
  }
  return { denied, other, failed };
}

/** `2 paths could not be read (permission denied): "locked", "src/secret"`, naming at most `show` of them. */
export function deniedNote(denied: string[], show = 5): string {
  const what = denied.length === 1 ? "1 path" : `${denied.length} paths`;
  return `${what} could not be read (permission denied): ${named(denied, show)}`;
}

/**
 * `1 file could not be searched (PCRE2: error matching: match limit exceeded): "a.txt"`: one line per
 * reason, naming at most `show` paths each.
 */
export function failedNotes(failed: FailedPath[], show = 5): string[] {
  return byReason(failed).map(([reason, paths]) => {
    const what = paths.length === 1 ? "1 file" : `${paths.length} files`;
    return `${what} could not be searched (${reason}): ${named(paths, show)}`;
  });
}

/** The failed paths grouped by reason, in the order the reasons first came. */
export function byReason(failed: FailedPath[]): Array<[string, string[]]> {
  const groups = new Map<string, string[]>();
  for (const { path, reason } of failed) groups.set(reason, [...groups.get(reason) ?? [], path]);
  return [...groups];
}

/** `"a", "b", +2 more`. */
export function named(paths: string[], show = 5): string {
  const names = paths.slice(0, show).map((path) => `"${path}"`).join(", ");
  return paths.length > show ? `${names}, +${paths.length - show} more` : names;
}
