/**
 * A few hundred characters of plain text out of whatever another program sent as an error: an HTML error
 * page becomes its text, character references are decoded, control characters and runs of whitespace
 * become one space, and the rest is cut with a note saying how much. The steps are separate so that a
 * caller can redact the text exactly as the reader will see it, between decoding and cutting
 * (redacted_excerpt.ts). Every step is linear in the input (no backtracking regular expression over text
 * an attacker wrote).
 * @module
 */
import { formatCount } from "./format.ts";

/** Characters an error excerpt keeps by default. */
export const EXCERPT_CHARS = 300;

/** Input beyond this is not even looked at: the excerpt comes from the start. */
export const SCAN_CHARS = 65_536;

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
  const { head, unseen } = scanHead(text);
  return cutLine(plainLine(head), maxChars, { unseen });
}

/** The part of `text` an excerpt is made from, and how many characters after it are never looked at. */
export function scanHead(text: string): { head: string; unseen: number } {
  if (text.length <= SCAN_CHARS) return { head: text, unseen: 0 };
  const end = isHighSurrogate(text.charCodeAt(SCAN_CHARS - 1)) ? SCAN_CHARS - 1 : SCAN_CHARS;
  return { head: text.slice(0, end), unseen: text.length - end };
}

/** What a reader sees of `text`, uncut: the text of an HTML page, references decoded, on one line. */
export function plainLine(text: string): string {
  return collapseSpace(LOOKS_LIKE_HTML.test(text) ? htmlToText(text) : decodeEntities(text));
}

/** `text` with every run of whitespace and control characters (terminal escapes included) as one space. */
export function collapseSpace(text: string): string {
  // deno-lint-ignore no-control-regex -- control characters must not pass
  return text.replace(/[\s\x00-\x1f\x7f]+/g, " ").trim();
}

/** How cutLine cuts. */
export interface CutOptions {
  /** Characters of the original left out before `plain` was made (scanHead's `unseen`). */
  unseen?: number;
  /** A marker (such as `[redacted]`) the cut must not split: a cut inside one moves to before it. */
  keepWhole?: string;
}

/**
 * `plain` if it fits in `maxChars` and nothing was left out; otherwise its start, cut at a character
 * boundary outside `keepWhole`, then `… [N more characters cut]`.
 */
export function cutLine(plain: string, maxChars: number, options: CutOptions = {}): string {
  const unseen = options.unseen ?? 0;
  if (plain.length <= maxChars && unseen === 0) return plain;
  let end = Math.min(plain.length, maxChars);
  const marker = options.keepWhole;
  if (marker && end < plain.length) {
    const start = plain.lastIndexOf(marker, end - 1);
    if (start >= 0 && start + marker.length > end) end = start;
  }
  if (end > 0 && isHighSurrogate(plain.charCodeAt(end - 1))) end--;
  return `${plain.slice(0, end).trimEnd()}… [${
    formatCount(plain.length - end + unseen)
  } more characters cut]`;
}

/** The visible text of an HTML page: no scripts, styles, comments; tags as spaces; references decoded. */
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
  // A tag ends at the first ">" or at the next "<": each scan stops there, so the whole pass is linear.
  return decodeEntities(kept.join("").replace(/<\/?[a-zA-Z!][^<>]*>?/g, " "));
}

/** `text` with numeric character references and the common named ones decoded, once. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+[0-9]?);/gi, (whole, name: string) => {
    if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
  });
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
