/**
 * The line breaks a replacement writes. A file with one style gets that style everywhere. In a mixed file
 * every line break the edit does not change stays byte for byte: the new text's lines are aligned with the
 * old lines they replace (a line diff), and a line that is unchanged, or replaces one old line one for
 * one, ends with that line's own break; only genuinely new lines take the file's dominant style (on a
 * tie, the ending of the line where the match starts).
 * @module
 */
import { diffArrays } from "diff";
import { isCrlf, lineBreakAt, type LineView, withLineBreak } from "./line_endings.ts";

/** The rewritten part of a replacement: view range [from, to) becomes `text` (view form, LF). */
export interface Rewrite {
  /** Where the match starts (its line's ending breaks dominance ties). */
  start: number;
  from: number;
  to: number;
  text: string;
}

/** Most edit operations the line alignment may take; beyond it lines pair up only when counts agree. */
const MAX_EDIT_LENGTH = 400;

/** `rewrite.text` with each LF replaced by the break it is written with. */
export function writtenText(lines: LineView, rewrite: Rewrite): string {
  if (!rewrite.text.includes("\n")) return rewrite.text;
  if (lines.endings !== "mixed") return withLineBreak(rewrite.text, lineBreakAt(lines, rewrite.start));
  const breaks = newBreaks(lines, rewrite);
  const parts = rewrite.text.split("\n");
  let out = parts[0];
  for (let i = 1; i < parts.length; i++) out += breaks[i - 1] + parts[i];
  return out;
}

/** The break of each line of the new text that `rewrite.text` terminates, in order. */
function newBreaks(lines: LineView, { start, from, to, text }: Rewrite): string[] {
  const view = lines.view;
  const crlf = lines.crlfAt.length;
  const dominant = crlf > lines.lfOnly ? "\r\n" : crlf < lines.lfOnly ? "\n" : lineBreakAt(lines, start);
  // Whole lines around [from, to): the old lines and the new ones, whose last line keeps the break after
  // the range (outside the edit, never rewritten).
  const lineStart = view.lastIndexOf("\n", from - 1) + 1;
  let lineEnd = view.indexOf("\n", to);
  if (lineEnd < 0) lineEnd = view.length;
  const oldLines = view.slice(lineStart, lineEnd).split("\n");
  const newLines = (view.slice(lineStart, from) + text + view.slice(to, lineEnd)).split("\n");
  const oldBreaks: (string | null)[] = [];
  for (let at = view.indexOf("\n", lineStart); at >= 0 && at <= lineEnd; at = view.indexOf("\n", at + 1)) {
    oldBreaks.push(isCrlf(lines, at) ? "\r\n" : "\n");
  }
  if (oldBreaks.length < oldLines.length) oldBreaks.push(null); // an unterminated last line
  const pairs = alignLines(oldLines, newLines);
  return newLines.slice(0, -1).map((_, i) => {
    const old = pairs[i];
    return (old === undefined ? null : oldBreaks[old]) ?? dominant;
  });
}

/** For each new line, the old line it keeps or replaces one for one; undefined for a genuinely new line. */
function alignLines(oldLines: string[], newLines: string[]): (number | undefined)[] {
  const pairs: (number | undefined)[] = new Array(newLines.length);
  const changes = diffArrays(oldLines, newLines, { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) {
    if (oldLines.length === newLines.length) newLines.forEach((_, i) => pairs[i] = i);
    return pairs;
  }
  let oldAt = 0;
  let newAt = 0;
  for (let c = 0; c < changes.length; c++) {
    const change = changes[c];
    const next = changes[c + 1];
    const count = change.value.length;
    if (!change.added && !change.removed) {
      for (let k = 0; k < count; k++) pairs[newAt + k] = oldAt + k;
      oldAt += count;
      newAt += count;
    } else if (
      next && (next.added || next.removed) && next.added !== change.added && next.value.length === count
    ) {
      // A block of lines replaced by as many lines: line k takes old line k's place.
      for (let k = 0; k < count; k++) pairs[newAt + k] = oldAt + k;
      oldAt += count;
      newAt += count;
      c++;
    } else if (change.removed) oldAt += count;
    else newAt += count;
  }
  return pairs;
}
