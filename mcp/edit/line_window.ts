/**
 * Long lines in hunks and diffs, cut to a window around what changed: a removed line and the added line
 * it pairs with are cut at the same place, just before their first difference, so a change in the middle
 * of a minified file stays visible. Other long lines are cut from their start.
 * @module
 */
import { formatCount } from "../../lib/text/format.ts";
import { commonPrefix, commonSuffix } from "./apply.ts";

/** A line of a hunk as shown: its mark and its text without the line break. */
export interface ShownLine {
  mark: " " | "-" | "+";
  text: string;
}

/** Unchanged characters shown before a change at least, when the change itself fills the window. */
const MIN_LEAD = 20;

/** Each line's text, at most `max` characters of it plus the markers saying how much was cut. */
export function cutLines(lines: readonly ShownLine[], max: number): string[] {
  const starts = new Array<number>(lines.length).fill(0);
  let i = 0;
  while (i < lines.length) {
    if (lines[i].mark !== "-") {
      i++;
      continue;
    }
    let added = i;
    while (added < lines.length && lines[added].mark === "-") added++;
    let end = added;
    while (end < lines.length && lines[end].mark === "+") end++;
    // diff lists a changed block as its removed lines, then its added lines: pair them in order.
    for (let k = 0; k < Math.min(added - i, end - added); k++) {
      const start = windowStart(lines[i + k].text, lines[added + k].text, max);
      starts[i + k] = start;
      starts[added + k] = start;
    }
    i = end;
  }
  return lines.map((line, index) => cutAt(line.text, starts[index], max));
}

/** Where the window of a changed pair starts: a little before their first difference. */
function windowStart(before: string, after: string, max: number): number {
  if (before.length <= max && after.length <= max) return 0;
  const prefix = commonPrefix(before, after);
  const suffix = commonSuffix(before, after, Math.min(before.length, after.length) - prefix);
  const changed = Math.max(before.length, after.length) - suffix - prefix;
  const lead = Math.max(Math.min(MIN_LEAD, Math.floor(max / 4)), Math.floor((max - changed) / 2));
  return Math.max(0, prefix - lead);
}

/** `text` from `start` for `max` characters (earlier when the line ends sooner), with cut markers. */
function cutAt(text: string, start: number, max: number): string {
  if (text.length <= max) return text;
  let from = Math.min(start, text.length - max);
  if (splitsPair(text, from)) from--;
  let to = from + max;
  if (splitsPair(text, to)) to--;
  const head = from > 0 ? `(+${formatCount(from)} chars) …` : "";
  const tail = to < text.length ? `… (+${formatCount(text.length - to)} chars)` : "";
  return `${head}${text.slice(from, to)}${tail}`;
}

/** Whether a cut at `at` falls inside a surrogate pair (lone surrogates stand for undecodable bytes). */
function splitsPair(text: string, at: number): boolean {
  const high = text.charCodeAt(at - 1);
  const low = text.charCodeAt(at);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}
