/**
 * Why an old_text was not found (spec §12): already applied, copied line-number prefixes, undecodable
 * bytes, or the closest block of the file and how it differs (indentation, tabs vs spaces, spacing inside
 * lines, changed/missing/extra lines). Bounded work: one pass over the file's lines.
 * @module
 */
import { diffArrays } from "diff";
import type { LineIndex } from "./line_endings.ts";
import { foldCompatible, foldUnicode } from "./normalize.ts";
import { meaningHint } from "./meaning.ts";
import { escapeInvisible } from "./chars.ts";

/** What the diagnosis needs. */
export interface NoMatchInput {
  lines: LineIndex;
  /** old_text and new_text in view form. */
  old: string;
  replacement: string;
  /** 1-based line of the first undecodable byte, or 0. */
  invalidLine: number;
}

/** fs_read's `   12\t`, other readers' `12│` `12|` `12:` `12→`, and this server's hunks' `- 12 | `. */
const LINE_NUMBER_PREFIX = /^(?:[-+] )?\s*\d+(?: \| ?|\t|│|\||:|→)/;
/** A line copied from an added line of this server's hunks: not in the file. */
const ADDED_HUNK_LINE = /^\+ \s*\d+ \|/;
const MAX_WINDOW = 12;
const MAX_TOKENS = 24;

/** The explanation that follows "old_text of edit N not found", one sentence plus the closest block. */
export function diagnoseNoMatch(input: NoMatchInput): string {
  const { lines, old, replacement } = input;
  const view = lines.text;
  const oldLines = splitLines(old);
  let closest: number | undefined;
  const closestLine = () => closest ??= closestStart(lines, oldLines);
  // A short new_text, or one that old_text contains (a deletion), is found anywhere: no evidence then.
  const appliedAt = replacement.trim().length >= 3 && !old.includes(replacement)
    ? view.indexOf(replacement)
    : -1;
  // new_text elsewhere than the text most like old_text is a coincidence (old_text has a typo).
  if (appliedAt >= 0 && isAtClosest(lines, appliedAt, replacement, closestLine(), oldLines.length)) {
    const line = lines.lineOf(appliedAt);
    return ` but new_text is already in the file at line ${line}: the edit looks applied already; read the file to check`;
  }
  const content = oldLines.filter((line) => line.trim() !== "");
  if (content.length && content.every((line) => LINE_NUMBER_PREFIX.test(line))) {
    const example = content[0].match(LINE_NUMBER_PREFIX)![0].trim();
    const stripped = oldLines.filter((line) => !ADDED_HUNK_LINE.test(line))
      .map((line) => line.replace(LINE_NUMBER_PREFIX, "")).join("\n");
    const at = view.indexOf(stripped);
    const found = at >= 0 ? `; without them it matches line ${lines.lineOf(at)}` : "";
    return `: every line of old_text starts with a line-number prefix such as "${example}" copied from read output${found}; remove the prefixes and retry`;
  }
  const replacementChar = old.includes("\uFFFD")
    ? " old_text contains U+FFFD (\uFFFD), which readers show for such bytes: end old_text before it and start after it."
    : "";
  const invalid = input.invalidLine > 0
    ? ` The file has bytes that are not valid UTF-8 (first on line ${input.invalidLine}); old_text cannot match across them.${replacementChar}`
    : "";
  const start = closestLine();
  if (start === 0) {
    return `, and no similar text is in the file; read it again and copy old_text from its current content.${invalid}`;
  }
  const end = Math.min(lines.count, start + Math.max(1, oldLines.length) - 1);
  const window: string[] = [];
  for (let line = start; line <= end; line++) window.push(lines.line(line));
  const shown = window.slice(0, MAX_WINDOW).map((text, i) =>
    `${String(start + i).padStart(5)} | ${cut(text)}`
  );
  if (window.length > MAX_WINDOW) shown.push(`      … ${window.length - MAX_WINDOW} more lines`);
  const range = start === end ? `line ${start}` : `lines ${start}-${end}`;
  return [
    `. Closest text is ${range}; ${classify(window, oldLines, start)}.${invalid}`,
    ...shown,
    `Copy the lines exactly as shown after "|", then retry.`,
  ].join("\n");
}

/** Whether new_text's lines overlap the closest block (or nothing else resembles old_text). */
function isAtClosest(
  lines: LineIndex,
  at: number,
  replacement: string,
  start: number,
  count: number,
): boolean {
  if (start === 0) return true;
  const first = lines.lineOf(at);
  const last = lines.lineOf(at + Math.max(0, replacement.length - 1));
  return start <= last && start + Math.max(1, count) - 1 >= first;
}

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function anchorKey(line: string): string {
  const trimmed = line.trim();
  // Looser than matching (NFKC): finding the text the model meant is what counts here.
  return /[\u0080-\uFFFF]/.test(trimmed) ? foldCompatible(trimmed).trim() : trimmed;
}

/** The 1-based start line of the window most lines of old_text point at; 0 when nothing is similar. */
function closestStart(lines: LineIndex, oldLines: string[]): number {
  const anchors = new Map<string, number[]>();
  oldLines.forEach((line, k) => {
    const key = anchorKey(line);
    if (key.length >= 3) anchors.set(key, [...(anchors.get(key) ?? []), k]);
  });
  const votes = new Map<number, number>();
  if (anchors.size) {
    const total = lines.count;
    for (let line = 1; line <= total; line++) {
      const ks = anchors.get(anchorKey(lines.line(line)));
      if (!ks) continue;
      for (const k of ks) votes.set(Math.max(1, line - k), (votes.get(Math.max(1, line - k)) ?? 0) + 1);
    }
  }
  let best = 0;
  let bestVotes = 0;
  for (const [start, count] of votes) {
    if (count > bestVotes || (count === bestVotes && start < best)) [best, bestVotes] = [start, count];
  }
  return best || rarestTokenStart(lines, oldLines);
}

/** Fallback: the line of the rarest word of old_text that the file contains, shifted to the window start. */
function rarestTokenStart(lines: LineIndex, oldLines: string[]): number {
  const view = lines.text;
  const tokens = new Map<string, number>();
  oldLines.forEach((line, k) => {
    for (const token of line.match(/[\p{L}\p{N}_$]{3,}/gu) ?? []) {
      if (!tokens.has(token)) tokens.set(token, k);
    }
  });
  // Bounded work on big files: the longest words are the likeliest to be rare, so only they are counted.
  const candidates = [...tokens].sort((a, b) => b[0].length - a[0].length).slice(0, MAX_TOKENS);
  let best: { count: number; at: number; k: number } | undefined;
  for (const [token, k] of candidates) {
    let count = 0;
    let first = -1;
    for (let at = view.indexOf(token); at >= 0 && count < 1_000; at = view.indexOf(token, at + 1)) {
      if (first < 0) first = at;
      count++;
    }
    if (count > 0 && (!best || count < best.count)) best = { count, at: first, k };
  }
  return best ? Math.max(1, lines.lineOf(best.at) - best.k) : 0;
}

const leading = (line: string) => line.match(/^[ \t]*/)![0];
const body = (line: string) => foldUnicode(line).replace(/[ \t]+$/, "");

/** How the window differs from old_text, as a clause for the model. */
function classify(window: string[], oldLines: string[], start: number): string {
  const meaning = meaningHint(window, oldLines, start);
  if (meaning) return meaning;
  const pairs = window.length === oldLines.length ? window.map((line, i) => [line, oldLines[i]]) : [];
  const allPairs = (same: (a: string, b: string) => boolean) =>
    pairs.length > 0 && pairs.every(([a, b]) => same(a, b));
  if (allPairs((a, b) => body(a).trimStart() === body(b).trimStart())) {
    const differing = pairs.filter(([a, b]) => leading(a) !== leading(b));
    const fileTabs = differing.filter(([a]) => a.startsWith("\t")).length;
    const oldTabs = differing.filter(([, b]) => b.startsWith("\t")).length;
    const fileSpaces = differing.filter(([a]) => a.startsWith(" ")).length;
    const oldSpaces = differing.filter(([, b]) => b.startsWith(" ")).length;
    if ((fileTabs && oldSpaces) || (fileSpaces && oldTabs)) {
      return `it differs only in indentation, tabs vs spaces (the file indents ${fileTabs} of these lines with tabs and ${fileSpaces} with spaces, old_text ${oldTabs} with tabs and ${oldSpaces} with spaces)`;
    }
    const widths = (side: 0 | 1) => {
      const all = differing.map((pair) => leading(pair[side]).length);
      if (all.every((width) => width === all[0])) return String(all[0]);
      return all.slice(0, 6).join(", ") + (all.length > 6 ? ", …" : "");
    };
    return `it differs only in indentation (the file indents these lines by ${
      widths(0)
    } spaces, old_text by ${widths(1)})`;
  }
  const collapse = (line: string) => body(line).trim().replace(/[ \t]+/g, " ");
  if (allPairs((a, b) => collapse(a) === collapse(b))) {
    const differing = pairs.flatMap(([a, b], i) => (a === b ? [] : [start + i]));
    return `it differs only in spacing inside ${differing.length === 1 ? "line" : "lines"} ${
      differing.slice(0, 8).join(", ")
    } (the file: ${escapeInvisible(window[differing[0] - start])})`;
  }
  return describeLineChanges(window, oldLines, start);
}

function describeLineChanges(window: string[], oldLines: string[], start: number): string {
  const parts: string[] = [];
  let fileLine = start;
  let oldIndex = 0;
  // Bounded: a window that differs everywhere is not worth a quadratic diff.
  const changes = diffArrays(window.map(body), oldLines.map(body), { maxEditLength: 500 });
  if (!changes) return "most of its lines differ from old_text";
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i];
    const next = changes[i + 1];
    if (change.removed && next?.added) {
      const count = Math.min(change.count ?? change.value.length, next.count ?? next.value.length);
      for (let k = 0; k < count && parts.length < 3; k++) {
        parts.push(
          `line ${fileLine + k} is ${
            JSON.stringify(cut(escapeInvisible(window[fileLine + k - start])))
          } in the file but ${JSON.stringify(cut(escapeInvisible(oldLines[oldIndex + k])))} in old_text`,
        );
      }
      fileLine += change.value.length;
      oldIndex += next.value.length;
      i++;
    } else if (change.removed) {
      if (parts.length < 3) {
        parts.push(
          `the file has extra ${plural(change.value.length, "line")} at ${fileLine} that old_text lacks`,
        );
      }
      fileLine += change.value.length;
    } else if (change.added) {
      if (parts.length < 3) {
        parts.push(
          `old_text has ${
            plural(change.value.length, "line")
          } missing from the file before line ${fileLine}: ${
            JSON.stringify(cut(escapeInvisible(oldLines[oldIndex])))
          }`,
        );
      }
      oldIndex += change.value.length;
    } else {
      fileLine += change.value.length;
      oldIndex += change.value.length;
    }
  }
  return parts.length ? parts.join("; ") : "it differs in line breaks or invisible characters";
}

/** Keeps minified or generated lines from flooding the message. */
function cut(line: string, max = 200): string {
  return line.length > max ? `${line.slice(0, max)}… (+${line.length - max} chars)` : line;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
