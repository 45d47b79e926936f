/**
 * Finding where an edit's old_text is: tier by tier (the first tier with a candidate decides), every
 * occurrence including overlapping ones, mapped back to real ranges of the file view.
 * @module
 */
import { normalize, type NormalView, type Tier, TIERS } from "./normalize.ts";

/** Where one occurrence sits in the file view. */
export interface Candidate {
  start: number;
  end: number;
  /** Start in the tier's normalised file view (needed to map a common prefix/suffix back). */
  normalStart: number;
}

/** The outcome of matching one old_text. */
export interface MatchResult {
  tier: Tier;
  candidates: Candidate[];
  /** The cap was hit: there are more candidates than listed. */
  capped: boolean;
  /** Matched by the EOF rule: old_text's final newline stood for the end of the file. */
  eof: boolean;
  /** old_text as matched (without its final newline under the EOF rule), and its tier view. */
  old: string;
  oldView: NormalView;
}

/** Normalised views of one file view, built lazily once per call and shared by all edits. */
export class FileViews {
  #views = new Map<Tier, NormalView>();
  constructor(readonly view: string) {}

  /** The view of `tier`. */
  get(tier: Tier): NormalView {
    let found = this.#views.get(tier);
    if (!found) {
      found = tier === "unicode" && !/[\u0080-\uFFFF]/.test(this.view)
        ? this.get("whitespace")
        : normalize(this.view, tier);
      this.#views.set(tier, found);
    }
    return found;
  }
}

/** Options of {@link matchOld}. */
export interface MatchOptions {
  /** Stop collecting after this many candidates (default 1000); `Infinity` for replace_all. */
  cap?: number;
}

/** Finds `old` (already in view form) in the file; null when no tier has a candidate. */
export function matchOld(files: FileViews, old: string, options: MatchOptions = {}): MatchResult | null {
  const cap = options.cap ?? 1000;
  for (const tier of TIERS) {
    const file = files.get(tier);
    const oldView = normalize(old, tier);
    const found = collect(file, oldView, old.length, cap);
    if (found.candidates.length) return { tier, ...found, eof: false, old, oldView };
    if (tier === "exact" || !old.endsWith("\n") || files.view.endsWith("\n")) continue;
    // EOF rule: old_text's final newline may stand for the end of a file that lacks one.
    const trimmed = old.slice(0, -1);
    const trimmedView = normalize(trimmed, tier);
    const atEnd = atFileEnd(file, trimmedView, trimmed.length);
    if (atEnd) {
      return { tier, candidates: [atEnd], capped: false, eof: true, old: trimmed, oldView: trimmedView };
    }
  }
  return null;
}

function collect(
  file: NormalView,
  oldView: NormalView,
  oldLength: number,
  cap: number,
): { candidates: Candidate[]; capped: boolean } {
  const needle = oldView.text;
  const candidates: Candidate[] = [];
  if (needle === "") return { candidates, capped: false };
  const mustEndAtLineEnd = strippedAtEnd(oldView, oldLength);
  for (let q = file.text.indexOf(needle); q >= 0; q = file.text.indexOf(needle, q + 1)) {
    const candidate = toCandidate(file, q, q + needle.length, mustEndAtLineEnd);
    if (!candidate) continue;
    if (candidates.length >= cap) return { candidates, capped: true };
    candidates.push(candidate);
  }
  return { candidates, capped: false };
}

function atFileEnd(file: NormalView, oldView: NormalView, oldLength: number): Candidate | null {
  const needle = oldView.text;
  if (needle === "" || !file.text.endsWith(needle)) return null;
  return toCandidate(
    file,
    file.text.length - needle.length,
    file.text.length,
    strippedAtEnd(oldView, oldLength),
  );
}

/** Maps a normalised hit back to the file view, or null when it would cut a folded cluster. */
function toCandidate(file: NormalView, q: number, qEnd: number, mustEndAtLineEnd: boolean): Candidate | null {
  if (mustEndAtLineEnd && qEnd < file.text.length && file.text[qEnd] !== "\n") return null;
  const map = file.map;
  if (!map) return { start: q, end: qEnd, normalStart: q };
  if (!map.isOutBoundary(q) || !map.isOutBoundary(qEnd)) return null;
  // Whitespace removed just before the start or after the end stays outside the match.
  return { start: map.latestSrc(q), end: map.earliestSrc(qEnd), normalStart: q };
}

/** True when normalising removed something at the very end of old_text (its last line's trailing blanks). */
function strippedAtEnd(oldView: NormalView, oldLength: number): boolean {
  return oldView.map !== null && oldView.map.earliestSrc(oldView.text.length) < oldLength;
}
