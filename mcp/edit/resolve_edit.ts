/** One edit of a call, resolved against the original file: matched, checked and turned into replacements. */
import type { DecodedText } from "./decode.ts";
import type { EditErrorKind } from "./errors.ts";
import { type LineIndex, type LineView, toViewString } from "./line_endings.ts";
import { type FileViews, matchOld, type MatchResult } from "./match.ts";
import { applyMatch, type Replacement } from "./apply.ts";
import { diagnoseNoMatch } from "./diagnose.ts";

/** One requested edit, as validated by the tool. */
export interface EditRequest {
  "old_text": string;
  "new_text": string;
  "replace_all"?: boolean;
  "expected_count"?: number;
}

/** An edit that matched: its match and the replacements it makes. */
export interface Resolved {
  index: number;
  match: MatchResult;
  replacements: Replacement[];
}

/** An edit that failed, with the spec kind and the sentence for the model. */
export interface Failure {
  index: number;
  kind: EditErrorKind;
  message: string;
}

/** The file as every edit of the call sees it. */
export interface EditContext {
  files: FileViews;
  lines: LineView;
  before: LineIndex;
  decoded: DecodedText;
}

/** Matches one edit against the original and computes its replacements, or says why it cannot. */
export function resolveEdit(edit: EditRequest, index: number, context: EditContext): Resolved | Failure {
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
    return `${line}:${lines.columnOf(c.start)} ${JSON.stringify(textAround(lines, c.start))}`;
  });
  const more = candidates.length > 10 ? ` and ${candidates.length - 10} more` : "";
  return `line ${shown.join(", line ")}${more}`;
}

const SNIPPET_CHARS = 60;

/** The candidate's line, or on a long (minified) line the text around the candidate, marked where cut. */
function textAround(lines: LineIndex, position: number): string {
  const line = lines.lineOf(position);
  const text = lines.line(line);
  const first = text.length - text.trimStart().length;
  const last = text.trimEnd().length;
  if (last - first <= SNIPPET_CHARS) return text.slice(first, last);
  const offset = position - lines.starts[line - 1];
  const to = Math.min(last, Math.max(first, offset - 20) + SNIPPET_CHARS);
  const from = Math.max(first, to - SNIPPET_CHARS);
  return `${from > first ? "…" : ""}${text.slice(from, to)}${to < last ? "…" : ""}`;
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
