/**
 * What the model sees of a change: numbered hunks (old numbers on removed lines, new numbers elsewhere)
 * and, for dry runs, a unified diff.
 * @module
 */
import { FILE_HEADERS_ONLY, formatPatch, type StructuredPatchHunk } from "diff";
import type { LineIndex } from "./line_endings.ts";
import { buildHunks, type ChangeSpan } from "./hunks.ts";
import { formatCount } from "../../lib/text/format.ts";
import { cutLines } from "./line_window.ts";

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
  let label = "";
  for (const hunk of buildHunks(before, after, spans, { context, ignoreLineBreaks: true })) {
    const next = `@@ ${hunk.edits.length === 1 ? "edit" : "edits"} ${hunk.edits.join(", ")} @@`;
    if (next !== label && shown < total) out.push(next);
    label = next;
    let inHunk = 0;
    const texts = cutLines(
      hunk.ops.map((op) => ({ mark: op.mark, text: op.line.replace(/\r?\n$/, "") })),
      lineChars,
    );
    for (const [i, op] of hunk.ops.entries()) {
      if (op.mark === "+") added++;
      if (op.mark === "-") removed++;
      if (inHunk >= perHunk || shown >= total) {
        if (op.mark !== " ") hidden++;
        continue;
      }
      inHunk++;
      shown++;
      const number = op.mark === "-" ? op.oldAt : op.newAt;
      out.push(`${op.mark} ${String(number).padStart(width)} | ${texts[i]}`);
    }
  }
  if (hidden) out.push(`… ${formatCount(hidden)} more changed lines`);
  return { text: out.join("\n"), added, removed };
}

/** Longest line of a unified diff; longer ones are cut around their change (a minified file's one line). */
const DIFF_LINE_CHARS = 500;

/** A unified diff with a/ b/ headers and 3 lines of context; lines above 500 characters are cut. */
export function unifiedDiff(before: LineIndex, after: LineIndex, spans: ChangeSpan[], path: string): string {
  const hunks: StructuredPatchHunk[] = buildHunks(before, after, spans, { context: 3 }).map((hunk) => {
    const lines: string[] = [];
    let oldLines = 0;
    let newLines = 0;
    const texts = cutLines(
      hunk.ops.map((op) => ({ mark: op.mark, text: op.line.replace(/\n$/, "") })),
      DIFF_LINE_CHARS,
    );
    for (const [i, op] of hunk.ops.entries()) {
      lines.push(op.mark + texts[i]);
      if (!op.line.endsWith("\n")) lines.push("\\ No newline at end of file");
      if (op.mark !== "+") oldLines++;
      if (op.mark !== "-") newLines++;
    }
    return {
      // formatPatch itself writes an empty side as the line before it (`-0,0`).
      oldStart: hunk.oldStart,
      oldLines,
      newStart: hunk.newStart,
      newLines,
      lines,
    };
  });
  return formatPatch(
    { oldFileName: `a/${path}`, newFileName: `b/${path}`, oldHeader: "", newHeader: "", hunks },
    FILE_HEADERS_ONLY,
  );
}
