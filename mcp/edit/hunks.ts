/**
 * What the model sees of a change: numbered hunks (old numbers on removed lines, new numbers elsewhere)
 * and, for dry runs, a unified diff. Both come from `npm:diff` run on small windows around the changed
 * lines, so a 5 MB file costs no more than its changes.
 * @module
 */
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatchHunk } from "diff";
import type { LineIndex } from "./line_endings.ts";

/** Changed lines of one replacement (1-based, inclusive) and the edit it belongs to. */
export interface ChangeSpan {
  edit: number;
  oldFrom: number;
  oldTo: number;
  newFrom: number;
  newTo: number;
}

interface Window {
  edits: number[];
  oldFrom: number;
  oldTo: number;
  newFrom: number;
  newTo: number;
}

/** Diff hunks per window of nearby spans, with line numbers of the whole file. */
function windowHunks(before: LineIndex, after: LineIndex, spans: ChangeSpan[], context: number) {
  const windows: Window[] = [];
  for (const span of [...spans].sort((a, b) => a.oldFrom - b.oldFrom)) {
    const lead = Math.min(context, span.oldFrom - 1, span.newFrom - 1);
    const trail = Math.min(context, before.count - span.oldTo, after.count - span.newTo);
    const next: Window = {
      edits: [span.edit],
      oldFrom: span.oldFrom - lead,
      oldTo: span.oldTo + Math.max(0, trail),
      newFrom: span.newFrom - lead,
      newTo: span.newTo + Math.max(0, trail),
    };
    const last = windows[windows.length - 1];
    if (last && next.oldFrom <= last.oldTo + 1) {
      if (!last.edits.includes(span.edit)) last.edits.push(span.edit);
      last.oldTo = Math.max(last.oldTo, next.oldTo);
      last.newTo = Math.max(last.newTo, next.newTo);
    } else {
      windows.push(next);
    }
  }
  return windows.map((window) => {
    const patch = structuredPatch(
      "",
      "",
      slice(before, window.oldFrom, window.oldTo),
      slice(after, window.newFrom, window.newTo),
      "",
      "",
      { context },
    );
    const hunks = patch.hunks.map((hunk) => ({
      ...hunk,
      oldStart: hunk.oldStart + window.oldFrom - 1,
      newStart: hunk.newStart + window.newFrom - 1,
    }));
    return { edits: window.edits, hunks };
  });
}

/** The exact text of lines [from, to], final line break (or its absence) included. */
function slice(index: LineIndex, from: number, to: number): string {
  if (to < from) return "";
  const start = index.starts[from - 1] ?? index.text.length;
  const end = to < index.starts.length ? index.starts[to] : index.text.length;
  return index.text.slice(start, end);
}

/** Limits of {@link numberedHunks}. */
export interface HunkLimits {
  context?: number;
  perHunk?: number;
  total?: number;
  lineChars?: number;
}

/** Numbered hunks and how many lines they add and remove. */
export interface NumberedHunks {
  text: string;
  added: number;
  removed: number;
}

/** `@@ edit 0 @@` blocks of `- 12 | old` / `+ 12 | new` / `  13 | context` lines, capped. */
export function numberedHunks(
  before: LineIndex,
  after: LineIndex,
  spans: ChangeSpan[],
  limits: HunkLimits = {},
): NumberedHunks {
  const { context = 2, perHunk = 30, total = 120, lineChars = 200 } = limits;
  const width = String(Math.max(before.count, after.count)).length;
  const out: string[] = [];
  let shown = 0;
  let hidden = 0;
  let added = 0;
  let removed = 0;
  for (const { edits, hunks } of windowHunks(before, after, spans, context)) {
    out.push(`@@ ${edits.length === 1 ? "edit" : "edits"} ${edits.join(", ")} @@`);
    for (const hunk of hunks) {
      let oldNo = hunk.oldStart;
      let newNo = hunk.newStart;
      let inHunk = 0;
      for (const line of hunk.lines) {
        const mark = line[0];
        if (mark === "\\") continue;
        if (mark === "+") added++;
        if (mark === "-") removed++;
        const number = mark === "-" ? oldNo : newNo;
        if (mark !== "+") oldNo++;
        if (mark !== "-") newNo++;
        if (inHunk >= perHunk || shown >= total) {
          if (mark !== " ") hidden++;
          continue;
        }
        inHunk++;
        shown++;
        out.push(
          `${mark === " " ? " " : mark} ${String(number).padStart(width)} | ${cut(line.slice(1), lineChars)}`,
        );
      }
    }
  }
  if (hidden) out.push(`… ${hidden} more changed lines`);
  return { text: out.join("\n"), added, removed };
}

/** A unified diff with a/ b/ headers and 3 lines of context, computed on windows around the changes. */
export function unifiedDiff(before: LineIndex, after: LineIndex, spans: ChangeSpan[], path: string): string {
  const hunks: StructuredPatchHunk[] = windowHunks(before, after, spans, 3).flatMap((window) => window.hunks);
  return formatPatch({
    oldFileName: `a/${path}`,
    newFileName: `b/${path}`,
    oldHeader: "",
    newHeader: "",
    hunks,
  }, FILE_HEADERS_ONLY);
}

function cut(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, max)}… (+${line.length - max} chars)` : line;
}
