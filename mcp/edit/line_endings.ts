/**
 * The LF "matching view" of a file (CRLF → LF; CR → LF in CR-only files) and the way back: every view
 * position maps to the text position before or after a whole CRLF, so an edit never splits one.
 * @module
 */

/** How a file ends its lines. */
export type LineEndings = "lf" | "crlf" | "cr" | "mixed" | "none";

/** A text with its line breaks normalised to LF, and what is needed to map positions back. */
export interface LineView {
  /** The text with CRLF (and, in CR-only files, CR) as LF. */
  view: string;
  /** View indices of the LFs that were CRLF in the text, ascending. */
  crlfAt: Int32Array;
  /** The file has CRs but no LF: every CR is a line break. */
  crOnly: boolean;
  endings: LineEndings;
  /** Line breaks (LFs of the view) that were a lone LF in the text; counted for mixed files only, else 0. */
  lfOnly: number;
}

/** Builds the matching view of `text`. */
export function toLineView(text: string): LineView {
  if (!text.includes("\r")) {
    return {
      view: text,
      crlfAt: new Int32Array(0),
      crOnly: false,
      endings: text.includes("\n") ? "lf" : "none",
      lfOnly: 0,
    };
  }
  if (!text.includes("\n")) {
    return {
      view: text.replaceAll("\r", "\n"),
      crlfAt: new Int32Array(0),
      crOnly: true,
      endings: "cr",
      lfOnly: 0,
    };
  }
  const positions: number[] = [];
  const parts: string[] = [];
  let from = 0;
  for (let at = text.indexOf("\r\n"); at >= 0; at = text.indexOf("\r\n", at + 2)) {
    parts.push(text.slice(from, at));
    positions.push(at - positions.length);
    from = at + 1;
  }
  parts.push(text.slice(from));
  const view = parts.join("");
  const lfTotal = countOf(text, "\n");
  const loneCr = countOf(text, "\r") - positions.length;
  const endings: LineEndings = positions.length === lfTotal && loneCr === 0 ? "crlf" : "mixed";
  return {
    view,
    crlfAt: Int32Array.from(positions),
    crOnly: false,
    endings,
    lfOnly: endings === "mixed" ? lfTotal - positions.length : 0,
  };
}

/** The text position of a view position (a position just after a CRLF's LF lands after the whole CRLF). */
export function toTextPosition(lines: LineView, position: number): number {
  return position + countBelow(lines.crlfAt, position);
}

/** Converts a model-supplied string to the view's conventions. */
export function toViewString(value: string, crOnly: boolean): string {
  const lf = value.replaceAll("\r\n", "\n");
  return crOnly ? lf.replaceAll("\r", "\n") : lf;
}

/**
 * The line break that text written at view position `at` uses: the terminator of the line `at` is on,
 * the previous line's for an unterminated last line, CR in CR-only files, LF when the file has none.
 */
export function lineBreakAt(lines: LineView, at: number): string {
  if (lines.crOnly) return "\r";
  let lf = lines.view.indexOf("\n", at);
  if (lf < 0) lf = lines.view.lastIndexOf("\n", at - 1);
  if (lf < 0) return "\n";
  return isCrlf(lines, lf) ? "\r\n" : "\n";
}

/** Writes view-form text (LF) with the given line break. */
export function withLineBreak(value: string, lineBreak: string): string {
  return lineBreak === "\n" ? value : value.replaceAll("\n", lineBreak);
}

/** Whether the view's LF at `lf` was a CRLF in the text. */
export function isCrlf(lines: LineView, lf: number): boolean {
  const i = countBelow(lines.crlfAt, lf);
  return i < lines.crlfAt.length && lines.crlfAt[i] === lf;
}

/** How many entries of the ascending `sorted` are below `value`. */
export function countBelow(sorted: Int32Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

function countOf(text: string, char: string): number {
  let count = 0;
  for (let at = text.indexOf(char); at >= 0; at = text.indexOf(char, at + 1)) count++;
  return count;
}

/** Line start offsets of a view, for turning positions into 1-based line numbers. */
export class LineIndex {
  readonly starts: Int32Array;
  constructor(readonly text: string) {
    const starts = [0];
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
    this.starts = Int32Array.from(starts);
  }

  /** 1-based line of `position`. */
  lineOf(position: number): number {
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.starts[mid] <= position) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** 1-based column of `position`, in code points. */
  columnOf(position: number): number {
    const start = this.starts[this.lineOf(position) - 1];
    return [...this.text.slice(start, position)].length + 1;
  }

  /** The text of 1-based line `line`, without its LF. */
  line(line: number): string {
    const start = this.starts[line - 1];
    const next = line < this.starts.length ? this.starts[line] - 1 : this.text.length;
    return this.text.slice(start, next);
  }

  /** Number of lines (a final LF does not open a new line). */
  get count(): number {
    const n = this.starts.length;
    return n > 1 && this.starts[n - 1] === this.text.length ? n - 1 : n;
  }
}
