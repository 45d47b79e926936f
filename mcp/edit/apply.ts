/**
 * Applying one match (spec §7): whole-line deletion, otherwise only the part between the common prefix and
 * suffix of old_text and new_text is written, and the file's own characters are kept around it.
 * @module
 */
import type { Candidate } from "./match.ts";
import type { NormalView } from "./normalize.ts";
import type { SegmentMap } from "./segments.ts";

type PositionMap = Pick<
  SegmentMap,
  "isSrcBoundary" | "isOutBoundary" | "outOf" | "earliestSrc" | "latestSrc"
>;

/** The map of a view that is its own source. */
const IDENTITY: PositionMap = {
  isSrcBoundary: () => true,
  isOutBoundary: () => true,
  outOf: (p) => p,
  earliestSrc: (q) => q,
  latestSrc: (q) => q,
};

/** One replacement in file-view coordinates. */
export interface Replacement {
  /** The matched range (used for overlap checks and line ranges). */
  start: number;
  end: number;
  /** The range actually rewritten, inside [start, end) unless whole lines were deleted. */
  from: number;
  to: number;
  /** What [from, to) becomes, in view form (LF). */
  text: string;
  /** The match grew to whole lines because new_text was empty. */
  wholeLine: boolean;
}

/** The inputs of {@link applyMatch}. */
export interface ApplyInput {
  view: string;
  /** The tier view of the file (its map is null for an exact view). */
  file: NormalView;
  candidate: Candidate;
  /** old_text and new_text in view form (for the EOF rule, without their final newline). */
  old: string;
  oldView: NormalView;
  replacement: string;
}

/** Computes what one match turns into. */
export function applyMatch(input: ApplyInput): Replacement {
  const { view, candidate, old, replacement } = input;
  const { start, end } = candidate;
  if (replacement === "") {
    const grown = wholeLines(view, start, end);
    if (grown) return { start, end, from: grown[0], to: grown[1], text: "", wholeLine: true };
  }
  const prefix = commonPrefix(old, replacement);
  const suffix = commonSuffix(old, replacement, Math.min(old.length, replacement.length) - prefix);
  const fileMap = input.file.map ?? IDENTITY;
  const oldMap = input.oldView.map ?? IDENTITY;
  // Move the prefix end left and the suffix start right onto boundaries that both views share, so a
  // folded cluster such as `ﬁ` or a decomposed `é` is replaced whole or not at all.
  const usable = (p: number) =>
    p === 0 || p === old.length ||
    (oldMap.isSrcBoundary(p) && fileMap.isOutBoundary(candidate.normalStart + oldMap.outOf(p)));
  let p = prefix;
  while (!usable(p)) p = stepBack(old, p);
  let s = old.length - suffix;
  while (!usable(s)) s = stepForward(old, s);
  const text = replacement.slice(p, Math.max(p, replacement.length - (old.length - s)));
  const from = Math.max(start, fileMap.earliestSrc(candidate.normalStart + oldMap.outOf(p)));
  // Trailing blanks the tier ignored just before the suffix (a line end) stay after the new text when
  // the lines changed one for one, unless it ends with blanks of its own: `    x = 1  ` becomes
  // `    x = 2  `, not `    x = 2`. A block replaced by more or fewer lines is written as given: the
  // blanks belonged to a line that is gone.
  const suffixAt = candidate.normalStart + oldMap.outOf(s);
  let to = Math.min(end, fileMap.latestSrc(suffixAt));
  const blanksAt = Math.max(from, fileMap.earliestSrc(suffixAt));
  if (
    blanksAt < to && /^[ \t]+$/.test(view.slice(blanksAt, to)) && !/[ \t]$/.test(text) &&
    breaksIn(old, p, s) === breaksIn(text, 0, text.length)
  ) to = blanksAt;
  return { start, end, from, to: Math.max(from, to), text, wholeLine: false };
}

/**
 * When deleting text that is all of its lines apart from surrounding blanks, the lines themselves: the
 * range plus the following line break (the preceding one for an unterminated last line). Null otherwise.
 */
function wholeLines(view: string, start: number, end: number): [number, number] | null {
  if (end > start && view[end - 1] === "\n") return null;
  const lineStart = view.lastIndexOf("\n", start - 1) + 1;
  let lineEnd = view.indexOf("\n", end);
  if (lineEnd < 0) lineEnd = view.length;
  if (!/^[ \t]*$/.test(view.slice(lineStart, start)) || !/^[ \t]*$/.test(view.slice(end, lineEnd))) {
    return null;
  }
  if (lineEnd < view.length) return [lineStart, lineEnd + 1];
  return [Math.max(0, lineStart - 1), lineEnd];
}

function breaksIn(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf("\n", from); at >= 0 && at < to; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/** Length of the common prefix in code units, never ending inside a surrogate pair. */
export function commonPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i > 0 && i < a.length && isHigh(a.charCodeAt(i - 1))) i--;
  return i;
}

/** Length of the common suffix (at most `limit`), never starting inside a surrogate pair. */
export function commonSuffix(a: string, b: string, limit: number): number {
  let i = 0;
  while (i < limit && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  if (i > 0 && i < a.length && isLow(a.charCodeAt(a.length - i))) i--;
  return i;
}

function stepBack(text: string, p: number): number {
  return p >= 2 && isLow(text.charCodeAt(p - 1)) && isHigh(text.charCodeAt(p - 2)) ? p - 2 : p - 1;
}

function stepForward(text: string, p: number): number {
  return isHigh(text.charCodeAt(p)) && isLow(text.charCodeAt(p + 1)) ? p + 2 : p + 1;
}

function isHigh(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
