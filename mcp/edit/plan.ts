/**
 * One edit_file call as a pure function: file bytes and edits in, new bytes and a report out, or one
 * error listing every failing edit. Nothing here touches the disk.
 * @module
 */
import { type DecodedText, decodeFile, encodeText } from "./decode.ts";
import { editError, type EditErrorKind } from "./errors.ts";
import {
  lineBreakAt,
  LineIndex,
  type LineView,
  toLineView,
  toTextPosition,
  toViewString,
  withLineBreak,
} from "./line_endings.ts";
import { FileViews, matchOld, type MatchResult } from "./match.ts";
import { applyMatch, type Replacement } from "./apply.ts";
import { diagnoseNoMatch } from "./diagnose.ts";
import { type Tolerated, tolerated } from "./tolerance.ts";
import type { Tier } from "./normalize.ts";
import type { ChangeSpan } from "./hunks.ts";

/** One requested edit, as validated by the tool. */
export interface EditRequest {
  "old_text": string;
  "new_text": string;
  "replace_all"?: boolean;
  "expected_count"?: number;
}

/** How one edit was applied. */
export interface EditOutcome {
  index: number;
  match: Tier;
  replacements: number;
  ranges: { old_start_line: number; old_end_line: number; new_start_line: number; new_end_line: number }[];
  tolerated: Tolerated[];
  wholeLine: boolean;
  /** Every replacement removed complete lines and wrote nothing. */
  linesRemoved: boolean;
}

/** The computed result of an edit_file call. */
export interface EditPlan {
  bytes: Uint8Array;
  decoded: DecodedText;
  lines: LineView;
  before: LineIndex;
  after: LineIndex;
  edits: EditOutcome[];
  spans: ChangeSpan[];
}

interface Resolved {
  index: number;
  match: MatchResult;
  replacements: Replacement[];
}

interface Failure {
  index: number;
  kind: EditErrorKind;
  message: string;
}

/** Decodes `bytes`, matches and applies every edit against the original; throws the first failure kind. */
export function planEdits(bytes: Uint8Array, edits: EditRequest[], displayPath: string): EditPlan {
  const decoded = decodeFile(bytes, displayPath);
  const lines = toLineView(decoded.text);
  const before = new LineIndex(lines.view);
  const files = new FileViews(lines.view);
  const resolved: Resolved[] = [];
  const failures: Failure[] = [];
  edits.forEach((edit, index) => {
    const result = resolveEdit(edit, index, { files, lines, before, decoded });
    if ("kind" in result) failures.push(result);
    else resolved.push(result);
  });
  if (failures.length) throw failureError(failures, displayPath);
  const all = resolved.flatMap((r) => r.replacements.map((replacement) => ({ index: r.index, replacement })));
  checkOverlaps(all, before, displayPath);
  all.sort((a, b) => a.replacement.from - b.replacement.from || a.replacement.to - b.replacement.to);

  const viewParts: string[] = [];
  const textParts: string[] = [];
  let viewAt = 0;
  let textAt = 0;
  const newStart = new Map<Replacement, number>();
  let shift = 0;
  for (const { replacement: r } of all) {
    newStart.set(r, Math.min(r.start, r.from) + shift);
    viewParts.push(lines.view.slice(viewAt, r.from), r.text);
    viewAt = r.to;
    const from = toTextPosition(lines, r.from);
    textParts.push(decoded.text.slice(textAt, from), withLineBreak(r.text, lineBreakAt(lines, r.start)));
    textAt = toTextPosition(lines, r.to);
    shift += r.text.length - (r.to - r.from);
  }
  viewParts.push(lines.view.slice(viewAt));
  textParts.push(decoded.text.slice(textAt));
  const newText = textParts.join("");
  if (newText === decoded.text) {
    throw editError(
      "no_change",
      `Cannot edit "${displayPath}": the file already contains this; the edits change nothing`,
    );
  }
  const after = new LineIndex(viewParts.join(""));
  const spans: ChangeSpan[] = [];
  const outcomes = resolved.map((r): EditOutcome => {
    const ranges = r.replacements.map((rep) => {
      const oldFrom = Math.min(rep.start, rep.from);
      const oldTo = Math.max(rep.end, rep.to);
      const newFrom = newStart.get(rep)!;
      const newTo = newFrom + (oldTo - oldFrom) - (rep.to - rep.from) + rep.text.length;
      const range = {
        "old_start_line": before.lineOf(oldFrom),
        "old_end_line": before.lineOf(Math.max(oldFrom, oldTo - 1)),
        "new_start_line": after.lineOf(newFrom),
        "new_end_line": after.lineOf(Math.max(newFrom, newTo - 1)),
      };
      // Whole lines around the rewritten part [from, to): the text before it on its first line and after
      // it on its last line is the same in both files, so the two line ranges correspond.
      const changedAt = newFrom + (rep.from - oldFrom);
      spans.push({
        edit: r.index,
        oldFrom: before.lineOf(rep.from),
        oldTo: before.lineOf(rep.to),
        newFrom: after.lineOf(changedAt),
        newTo: after.lineOf(changedAt + rep.text.length),
      });
      return range;
    });
    const first = r.replacements[0];
    return {
      index: r.index,
      match: r.match.tier,
      replacements: r.replacements.length,
      ranges,
      tolerated: tolerated(r.match.tier, lines.view.slice(first.start, first.end), r.match.old, {
        firstLine: before.lineOf(first.start),
        eof: r.match.eof,
      }),
      wholeLine: r.replacements.some((rep) => rep.wholeLine),
      linesRemoved: r.replacements.every((rep) =>
        rep.wholeLine || rep.text === "" && (rep.from === 0 || lines.view[rep.from - 1] === "\n") &&
          (rep.to === lines.view.length || lines.view[rep.to - 1] === "\n")
      ),
    };
  });
  const out = encodeText(newText, { bom: decoded.bom, escaped: decoded.invalidBytes > 0 });
  return { bytes: out, decoded, lines, before, after, edits: outcomes, spans };
}

interface Context {
  files: FileViews;
  lines: LineView;
  before: LineIndex;
  decoded: DecodedText;
}

function resolveEdit(edit: EditRequest, index: number, context: Context): Resolved | Failure {
  const { files, lines, before, decoded } = context;
  const old = toViewString(edit.old_text.replace(/^\uFEFF/, ""), lines.crOnly);
  const replacement = toViewString(edit.new_text, lines.crOnly);
  const fail = (kind: EditErrorKind, message: string): Failure => ({
    index,
    kind,
    message: `edit ${index}: ${message}`,
  });
  if (old === replacement) return fail("no_change", "old_text and new_text are identical; nothing to change");
  const match = matchOld(files, old, { cap: edit.replace_all ? Infinity : 1000 });
  if (!match) {
    const invalidLine = decoded.firstInvalidIndex >= 0
      ? before.lineOf(toViewPosition(lines, decoded.firstInvalidIndex))
      : 0;
    return fail(
      "no_match",
      `old_text not found${diagnoseNoMatch({ lines: before, old, replacement, invalidLine })}`,
    );
  }
  let candidates = match.candidates;
  if (!edit.replace_all && candidates.length > 1) {
    const count = match.capped ? `${candidates.length}+` : String(candidates.length);
    return fail(
      "ambiguous",
      `old_text matches ${count} places (${match.tier} match): ${candidateList(candidates, before)}; ` +
        `add surrounding lines to old_text to pick one, or set replace_all`,
    );
  }
  if (edit.replace_all) {
    candidates = leftmostNonOverlapping(candidates);
    if (edit.expected_count !== undefined && edit.expected_count !== candidates.length) {
      return fail(
        "count_mismatch",
        `replace_all found ${candidates.length} occurrences (${match.tier} match) but expected_count is ${edit.expected_count}: ${
          candidateList(candidates, before)
        }`,
      );
    }
  }
  const written = match.eof && replacement.endsWith("\n") ? replacement.slice(0, -1) : replacement;
  const file = files.get(match.tier);
  const replacements = candidates.map((candidate) =>
    applyMatch({
      view: lines.view,
      file,
      candidate,
      old: match.old,
      oldView: match.oldView,
      replacement: written,
    })
  );
  if (decoded.invalidBytes > 0 && replacements.some((r) => /[\u0080-\uFFFF]/.test(r.text))) {
    const line = before.lineOf(toViewPosition(lines, decoded.firstInvalidIndex));
    return fail(
      "encoding_conflict",
      `new_text has non-ASCII characters but the file is not valid UTF-8 (first bad byte on line ${line}), ` +
        `so it is probably Latin-1 or Windows-1252; write those characters another way or convert the file to UTF-8`,
    );
  }
  return { index, match, replacements };
}

function candidateList(candidates: { start: number }[], lines: LineIndex): string {
  const shown = candidates.slice(0, 10).map((c) => {
    const line = lines.lineOf(c.start);
    return `${line}:${lines.columnOf(c.start)} ${JSON.stringify(lines.line(line).trim().slice(0, 60))}`;
  });
  const more = candidates.length > 10 ? ` and ${candidates.length - 10} more` : "";
  return `line ${shown.join(", line ")}${more}`;
}

function leftmostNonOverlapping<T extends { start: number; end: number }>(candidates: T[]): T[] {
  const picked: T[] = [];
  for (const candidate of candidates) {
    const last = picked[picked.length - 1];
    if (!last || candidate.start >= last.end) picked.push(candidate);
  }
  return picked;
}

function toViewPosition(lines: LineView, textIndex: number): number {
  // The k-th CRLF's CR sits at text index crlfAt[k] + k; each one before textIndex is one unit shorter in the view.
  let k = 0;
  while (k < lines.crlfAt.length && lines.crlfAt[k] + k < textIndex) k++;
  return textIndex - k;
}

function checkOverlaps(
  all: { index: number; replacement: Replacement }[],
  lines: LineIndex,
  displayPath: string,
): void {
  const ranges = all.map(({ index, replacement: r }) => ({
    index,
    start: Math.min(r.start, r.from),
    end: Math.max(r.end, r.to),
  })).sort((a, b) => a.start - b.start || a.end - b.end);
  let widest = ranges[0];
  for (const range of ranges.slice(1)) {
    const sameStart = range.start === widest.start && range.end > range.start && widest.end > widest.start;
    if (range.start < widest.end || sameStart) {
      const [a, b] = widest.index <= range.index ? [widest, range] : [range, widest];
      const span = (r: typeof a) => `${lines.lineOf(r.start)}-${lines.lineOf(Math.max(r.start, r.end - 1))}`;
      const what = a.index === b.index
        ? `edit ${a.index} has overlapping occurrences`
        : `edits ${a.index} and ${b.index} overlap`;
      throw editError(
        "overlapping",
        `Cannot edit "${displayPath}": ${what} (lines ${span(a)} and ${span(b)}); merge them into one edit`,
      );
    }
    if (range.end > widest.end) widest = range;
  }
}

function failureError(failures: Failure[], displayPath: string) {
  const first = failures.reduce((a, b) => (a.index <= b.index ? a : b));
  const intro = failures.length === 1
    ? `Cannot edit "${displayPath}": `
    : `Cannot edit "${displayPath}": ${failures.length} edits failed, nothing was changed\n`;
  return editError(first.kind, intro + failures.map((f) => f.message).join("\n"));
}
