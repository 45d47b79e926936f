/** Long lines (minified code, data files) cut to a window around the match, saying how much was cut. */
import { formatCount } from "../../lib/text/format.ts";

/** Share of the window shown before the match. */
const LEAD = 0.3;

/**
 * `line` unchanged when it fits in `maxChars`; otherwise a window of about `maxChars` that starts a little
 * before the first match span, with `…(+N chars)` where text was cut; `more` counts characters already cut
 * off the end while reading.
 */
export function cutLine(
  line: string,
  spans: Array<[number, number]>,
  options: { maxChars: number; more?: number },
): string {
  const { maxChars } = options;
  // Characters past the end of `line` that were never read into it (an oversized record).
  const more = options.more ?? 0;
  if (line.length <= maxChars && !more) return line;
  const first = spans.length ? Math.min(...spans.map(([s]) => s)) : 0;
  let start = Math.max(0, first - Math.floor(maxChars * LEAD));
  let end = Math.min(line.length, start + maxChars);
  start = Math.max(0, end - maxChars);
  // Never split a surrogate pair.
  if (start > 0 && isLowSurrogate(line.charCodeAt(start))) start--;
  if (end < line.length && isLowSurrogate(line.charCodeAt(end))) end++;
  const head = start > 0 ? `…(+${formatCount(start)} chars)` : "";
  const tail = end < line.length || more ? `…(+${formatCount(line.length - end + more)} chars)` : "";
  return `${head}${line.slice(start, end)}${tail}`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
