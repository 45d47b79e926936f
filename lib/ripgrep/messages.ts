/**
 * ripgrep's stderr, sorted: the paths it could not read for lack of permission, and its other messages.
 * Searches and listings keep going past an unreadable folder; these say what was left out.
 * @module
 */
import { withoutDotPrefix } from "./files.ts";

/** What ripgrep said on stderr. */
export interface RipgrepMessages {
  /** Paths ripgrep could not open for lack of permission, as it printed them (`./` dropped). */
  denied: string[];
  /** Every other message, `rg: ` dropped. */
  other: string[];
}

// POSIX EACCES/EPERM, Windows ERROR_ACCESS_DENIED.
// The walker words it `rg: ./x: IO error for operation on ./x: Permission denied (os error 13)`.
const DENIED =
  /^rg: (.+?): (?:IO error for operation on .+: )?(?:Permission denied \(os error 13\)|Operation not permitted \(os error 1\)|Access is denied\. \(os error 5\))$/;

/** Sorts ripgrep's stderr lines into unreadable paths and other messages. */
export function parseMessages(stderr: string): RipgrepMessages {
  const denied: string[] = [];
  const other: string[] = [];
  for (const line of stderr.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const match = line.match(DENIED);
    if (match) denied.push(withoutDotPrefix(match[1]));
    else other.push(line.replace(/^rg: /, ""));
  }
  return { denied, other };
}

/** `2 paths could not be read (permission denied): "locked", "src/secret"`, naming at most `show` of them. */
export function deniedNote(denied: string[], show = 5): string {
  const names = denied.slice(0, show).map((path) => `"${path}"`).join(", ");
  const more = denied.length > show ? `, +${denied.length - show} more` : "";
  const what = denied.length === 1 ? "1 path" : `${denied.length} paths`;
  return `${what} could not be read (permission denied): ${names}${more}`;
}
