/**
 * Hunks of a change: each changed region is diffed on its own lines with `npm:diff` (bounded: a huge
 * rewrite falls back to remove-all/add-all), then laid out with context, so the cost follows the size of
 * the changes, never the size of the file.
 * @module
 */
import { diffArrays } from "diff";
import type { LineIndex } from "./line_endings.ts";

/** Lines of one changed region (1-based, inclusive) in the old and new file, and its edit. */
export interface ChangeSpan {
  edit: number;
  oldFrom: number;
  oldTo: number;
  newFrom: number;
  newTo: number;
}

/** One line of a hunk. */
export interface Op {
  mark: " " | "-" | "+";
  /** The line with its terminator, if it has one. */
  line: string;
  /** Old and new line number at this op (for an insertion or deletion: where it happens). */
  oldAt: number;
  newAt: number;
}

/** Nearby changes with their context lines. */
export interface Hunk {
  edits: number[];
  oldStart: number;
  newStart: number;
  ops: Op[];
}

/** Most edit operations a region's line diff may take before it is shown as a plain replacement. */
const MAX_EDIT_LENGTH = 400;

/** The line with its terminator; "" for the empty line after a final line break. */
function lineAt(index: LineIndex, line: number): string {
  const start = index.starts[line - 1];
  if (start === undefined) return "";
  const end = line < index.starts.length ? index.starts[line] : index.text.length;
  return index.text.slice(start, end);
}

function linesOf(index: LineIndex, from: number, to: number): string[] {
  const lines: string[] = [];
  for (let line = from; line <= to; line++) {
    const text = lineAt(index, line);
    if (text !== "") lines.push(text);
  }
  return lines;
}

/** Spans that share a line become one: they are diffed together. */
function mergeSpans(spans: ChangeSpan[]): (ChangeSpan & { edits: number[] })[] {
  const merged: (ChangeSpan & { edits: number[] })[] = [];
  for (const span of [...spans].sort((a, b) => a.oldFrom - b.oldFrom || a.newFrom - b.newFrom)) {
    const last = merged[merged.length - 1];
    if (last && span.oldFrom <= last.oldTo) {
      if (!last.edits.includes(span.edit)) last.edits.push(span.edit);
      last.oldTo = Math.max(last.oldTo, span.oldTo);
      last.newTo = Math.max(last.newTo, span.newTo);
    } else {
      merged.push({ ...span, edits: [span.edit] });
    }
  }
  return merged;
}

/** How two lines are compared: with their line breaks, or (for numbered hunks) by their text alone. */
type SameLine = (a: string, b: string) => boolean;

const WITH_BREAKS: SameLine = (a, b) => a === b;
const TEXT_ONLY: SameLine = (a, b) => a === b || a.replace(/\r?\n$/, "") === b.replace(/\r?\n$/, "");

/** Line-level ops of one region, from npm:diff on the lines between their common head and tail. */
function regionOps(before: LineIndex, after: LineIndex, span: ChangeSpan, same: SameLine): Op[] {
  const oldLines = linesOf(before, span.oldFrom, span.oldTo);
  const newLines = linesOf(after, span.newFrom, span.newTo);
  let head = 0;
  while (head < oldLines.length && head < newLines.length && same(oldLines[head], newLines[head])) head++;
  let tail = 0;
  while (
    tail < oldLines.length - head && tail < newLines.length - head &&
    same(oldLines[oldLines.length - 1 - tail], newLines[newLines.length - 1 - tail])
  ) tail++;
  const oldMiddle = oldLines.slice(head, oldLines.length - tail);
  const newMiddle = newLines.slice(head, newLines.length - tail);
  const changes = [
    { removed: false, added: false, value: oldLines.slice(0, head) },
    ...(diffArrays(oldMiddle, newMiddle, { maxEditLength: MAX_EDIT_LENGTH, comparator: same }) ??
      [{ removed: true, added: false, value: oldMiddle }, { removed: false, added: true, value: newMiddle }]),
    { removed: false, added: false, value: oldLines.slice(oldLines.length - tail) },
  ];
  const ops: Op[] = [];
  let oldAt = span.oldFrom;
  let newAt = span.newFrom;
  for (const change of changes) {
    for (const line of change.value) {
      if (change.added) ops.push({ mark: "+", line, oldAt, newAt: newAt++ });
      else if (change.removed) ops.push({ mark: "-", line, oldAt: oldAt++, newAt });
      else ops.push({ mark: " ", line, oldAt: oldAt++, newAt: newAt++ });
    }
  }
  return ops;
}

/** Options of {@link buildHunks}. */
export interface HunkOptions {
  /** Unchanged lines shown around each run of changes. */
  context: number;
  /**
   * Lines that differ only in their line break count as unchanged (numbered hunks, which do not show
   * breaks); a unified diff keeps them as changes so it stays a valid patch.
   */
  ignoreLineBreaks?: boolean;
}

/** Hunks with `context` unchanged lines around each run of changes. */
export function buildHunks(
  before: LineIndex,
  after: LineIndex,
  spans: ChangeSpan[],
  options: HunkOptions,
): Hunk[] {
  const { context } = options;
  const same = options.ignoreLineBreaks ? TEXT_ONLY : WITH_BREAKS;
  const hunks: Hunk[] = [];
  const regions = mergeSpans(spans);
  let ops: Op[] = [];
  let edits: number[] = [];
  const contextOps = (from: number, to: number, shift: number) => {
    for (let line = Math.max(1, from); line <= to; line++) {
      const text = lineAt(before, line);
      if (text !== "") ops.push({ mark: " ", line: text, oldAt: line, newAt: line + shift });
    }
  };
  const flush = () => {
    for (const hunk of splitHunks(ops, edits, context)) hunks.push(hunk);
    ops = [];
    edits = [];
  };
  regions.forEach((region, i) => {
    const previous = regions[i - 1];
    const shift = region.newFrom - region.oldFrom;
    if (previous && region.oldFrom - previous.oldTo - 1 <= 2 * context) {
      contextOps(previous.oldTo + 1, region.oldFrom - 1, shift);
    } else {
      if (previous) {
        contextOps(previous.oldTo + 1, previous.oldTo + context, previous.newTo - previous.oldTo);
        flush();
      }
      contextOps(region.oldFrom - context, region.oldFrom - 1, shift);
    }
    for (const op of regionOps(before, after, region, same)) ops.push(op);
    for (const edit of region.edits) if (!edits.includes(edit)) edits.push(edit);
  });
  const lastRegion = regions[regions.length - 1];
  if (lastRegion) {
    contextOps(
      lastRegion.oldTo + 1,
      Math.min(before.count, lastRegion.oldTo + context),
      lastRegion.newTo - lastRegion.oldTo,
    );
  }
  flush();
  return hunks;
}

/** Cuts an op list where more than 2×context unchanged lines separate changes; trims outer context. */
function splitHunks(ops: Op[], edits: number[], context: number): Hunk[] {
  const changed = ops.flatMap((op, i) => (op.mark === " " ? [] : [i]));
  const hunks: Hunk[] = [];
  let start = 0;
  while (start < changed.length) {
    let end = start;
    while (end + 1 < changed.length && changed[end + 1] - changed[end] - 1 <= 2 * context) end++;
    const from = Math.max(0, changed[start] - context);
    const to = Math.min(ops.length - 1, changed[end] + context);
    const slice = ops.slice(from, to + 1);
    hunks.push({ edits, oldStart: slice[0].oldAt, newStart: slice[0].newAt, ops: slice });
    start = end + 1;
  }
  return hunks;
}
