/**
 * One edit_file call as a pure function: file bytes and edits in, new bytes and a report out, or one
 * error listing every failing edit. Nothing here touches the disk.
 * @module
 */
import { type DecodedText, decodeFile, encodeText } from "./decode.ts";
import { editError } from "./errors.ts";
import { capText } from "../../lib/text/cap.ts";
import { LineIndex, type LineView, toLineView, toTextPosition } from "./line_endings.ts";
import { writtenText } from "./line_breaks.ts";
import { FileViews } from "./match.ts";
import type { Replacement } from "./apply.ts";
import { type EditRequest, type Failure, type Resolved, resolveEdit } from "./resolve_edit.ts";
import { type Tolerated, tolerated } from "./tolerance.ts";
import type { Tier } from "./normalize.ts";
import type { ChangeSpan } from "./hunks.ts";

export type { EditRequest };

const MAX_ERROR_CHARS = 12_000;

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

/** Options of {@link planEdits}. */
export interface PlanOptions {
  /** Each edit's index in the call (its position in `edits` by default), as reports and errors name it. */
  indices?: readonly number[];
}

/** Decodes `bytes`, matches and applies every edit against the original; throws the first failure kind. */
export function planEdits(
  bytes: Uint8Array,
  edits: EditRequest[],
  displayPath: string,
  options: PlanOptions = {},
): EditPlan {
  const decoded = decodeFile(bytes, displayPath);
  const lines = toLineView(decoded.text);
  const before = new LineIndex(lines.view);
  const files = new FileViews(lines.view);
  const resolved: Resolved[] = [];
  const failures: Failure[] = [];
  edits.forEach((edit, index) => {
    const result = resolveEdit(edit, options.indices?.[index] ?? index, { files, lines, before, decoded });
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
    textParts.push(decoded.text.slice(textAt, from), writtenText(lines, r));
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
      // Deleting an unterminated last line takes the line break before it; the line before stays.
      const tookBreakBefore = rep.wholeLine && rep.from < rep.start && lines.view[rep.from] === "\n";
      const range = {
        "old_start_line": before.lineOf(tookBreakBefore ? rep.from + 1 : oldFrom),
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
  // Up to 100 failing edits with their closest blocks: keep the answer readable, say what was cut.
  return editError(first.kind, capText(intro + failures.map((f) => f.message).join("\n"), MAX_ERROR_CHARS));
}
