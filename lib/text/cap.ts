/** The output cap every server uses: keep the head and the tail, cut the middle, say what was cut. */
import { formatCount } from "./format.ts";

/** How a cap is applied. */
export interface CapOptions {
  /** Share of the budget given to the head; the rest goes to the tail. Default 0.5. */
  headShare?: number;
  /** How to get what was cut, said inside the marker: `[... 1,024 lines cut: <note> ...]`. */
  note?: string;
}

const encoder = new TextEncoder();

/**
 * `text` unchanged when it fits in `maxChars`; otherwise its head and tail (snapped to line breaks when
 * one is near) around a marker saying exactly what was cut: `[... 48,211 bytes / 1,024 lines cut ...]`.
 */
export function capText(text: string, maxChars: number, options: CapOptions = {}): string {
  if (text.length <= maxChars) return text;
  const budget = Math.max(0, maxChars - 60);
  let headEnd = Math.floor(budget * (options.headShare ?? 0.5));
  let tailStart = text.length - (budget - headEnd);
  headEnd = snapBack(text, headEnd);
  tailStart = snapForward(text, tailStart);
  const cut = text.slice(headEnd, tailStart);
  const lines = cut.split("\n").length - 1;
  const marker = `[... ${formatCount(encoder.encode(cut).length)} bytes / ${formatCount(lines)} lines cut${
    options.note ? `: ${options.note}` : ""
  } ...]`;
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  const before = head === "" || head.endsWith("\n") ? "" : "\n";
  const after = tail === "" ? "" : "\n";
  return `${head}${before}${marker}${after}${tail}`;
}

/** Moves a head cut back to just after a line break, if one lies within the last fifth of the head. */
function snapBack(text: string, end: number): number {
  const lineBreak = text.lastIndexOf("\n", end - 1);
  return lineBreak >= 0 && end - lineBreak <= Math.max(200, end / 5) ? lineBreak + 1 : end;
}

/** Moves a tail cut forward to just after a line break, if one lies within the first fifth of the tail. */
function snapForward(text: string, start: number): number {
  const lineBreak = text.indexOf("\n", start);
  const room = Math.max(200, (text.length - start) / 5);
  return lineBreak >= 0 && lineBreak - start < room && lineBreak + 1 < text.length ? lineBreak + 1 : start;
}

/** Characters of user text an error message quotes at most (a 200 KB command must not echo whole). */
export const MESSAGE_QUOTE_CHARS = 200;

/** `text` short enough to quote in a one-line message: its start, then how much was left out. */
export function capQuote(text: string, maxChars = MESSAGE_QUOTE_CHARS): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}… [${formatCount(text.length - maxChars)} more characters]`;
}
