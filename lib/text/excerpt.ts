/**
 * A few hundred characters of plain text out of whatever another program sent as an error: an HTML error
 * page becomes its text, control characters and runs of whitespace become one space, and the rest is cut
 * with a note saying how much. Every step is linear in the input (no backtracking regular expression over
 * text an attacker wrote).
 * @module
 */
import { formatCount } from "./format.ts";

/** Characters an error excerpt keeps by default. */
export const EXCERPT_CHARS = 300;

/** Input beyond this is not even looked at: the excerpt comes from the start. */
const SCAN_CHARS = 65_536;

/** Tags that mark text as HTML (an error page), not prose that mentions `<tool>` or `a < b`. */
const LOOKS_LIKE_HTML = /<(?:!doctype|html|head|body|title|div|p|br|span|h[1-6]|pre|table|script|style)\b/i;

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** `text` as one line of at most ~`maxChars` characters, ending `… [N more characters cut]` when cut. */
export function plainExcerpt(text: string, maxChars = EXCERPT_CHARS): string {
  const scanned = text.length > SCAN_CHARS ? text.slice(0, SCAN_CHARS) : text;
  const plain = (LOOKS_LIKE_HTML.test(scanned) ? htmlToText(scanned) : scanned)
    // deno-lint-ignore no-control-regex -- control characters (terminal escapes included) must not pass
    .replace(/[\s\x00-\x1f\x7f]+/g, " ").trim();
  const unseen = text.length - scanned.length;
  if (plain.length <= maxChars && unseen === 0) return plain;
  const rest = plain.length - Math.min(plain.length, maxChars) + unseen;
  return `${plain.slice(0, maxChars).trimEnd()}… [${formatCount(rest)} more characters cut]`;
}

/** The visible text of an HTML page: scripts, styles and comments dropped, tags become spaces. */
export function htmlToText(html: string): string {
  const opening = /<(script|style)\b|<!--/gi;
  const kept: string[] = [];
  let at = 0;
  for (let found = opening.exec(html); found; found = opening.exec(html)) {
    kept.push(html.slice(at, found.index), " ");
    const closing = found[1] ? new RegExp(`</${found[1]}[^<>]*>`, "gi") : /-->/g;
    closing.lastIndex = opening.lastIndex;
    at = closing.exec(html) ? closing.lastIndex : html.length;
    opening.lastIndex = at;
  }
  kept.push(html.slice(at));
  return kept.join("")
    // A tag ends at the first ">" or at the next "<": each scan stops there, so the whole pass is linear.
    .replace(/<\/?[a-zA-Z!][^<>]*>?/g, " ")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+[0-9]?);/gi, (whole, name: string) => {
      if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    });
}
