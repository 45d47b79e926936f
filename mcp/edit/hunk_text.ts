/**
 * What the model sees of a change: numbered hunks (old numbers on removed lines, new numbers elsewhere)
 * and, for dry runs, a unified diff.
 * @module
 */
import { FILE_HEADERS_ONLY, formatPatch, type StructuredPatchHunk } from "diff";
import type { LineIndex } from "./line_endings.ts";
import { buildHunks, type ChangeSpan } from "./hunks.ts";
import { formatCount } from "../../lib/text/format.ts";

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
  for (const hunk of buildHunks(before, after, spans, context)) {
    const next = `@@ ${hunk.edits.length === 1 ? "edit" : "edits"} ${hunk.edits.join(", ")} @@`;
    if (next !== label && shown < total) out.push(next);
    label = next;
    let inHunk = 0;
    for (const op of hunk.ops) {
      if (op.mark === "+") added++;
      if (op.mark === "-") removed++;
      if (inHunk >= perHunk || shown >= total) {
        if (op.mark !== " ") hidden++;
        continue;
      }
      inHunk++;
      shown++;
      const number = op.mark === "-" ? op.oldAt : op.newAt;
      const text = op.line.replace(/\r?\n$/, "");
      out.push(`${op.mark} ${String(number).padStart(width)} | ${cut(text, lineChars)}`);
    }
  }
  if (hidden) out.push(`… ${formatCount(hidden)} more changed lines`);
  return { text: out.join("\n"), added, removed };
}

/** A unified diff with a/ b/ headers and 3 lines of context. */
export function unifiedDiff(before: LineIndex, after: LineIndex, spans: ChangeSpan[], path: string): string {
  const hunks: StructuredPatchHunk[] = buildHunks(before, after, spans, 3).map((hunk) => {
    const lines: string[] = [];
    let oldLines = 0;
    let newLines = 0;
    for (const op of hunk.ops) {
      lines.push(op.mark + op.line.replace(/\n$/, ""));
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

function cut(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, max)}… (+${line.length - max} chars)` : line;
}
