/** What a note says about itself when its front matter does not: a title and a one-line summary. */
import { oneLine } from "./front_matter.ts";

/** Longest title kept in front matter. */
export const MAX_TITLE = 120;
/** Longest summary kept in front matter. */
export const MAX_SUMMARY = 200;

/** The text of the first markdown heading (`# Title`), if the body has one outside code fences. */
export function firstHeading(body: string): string | undefined {
  for (const line of proseLines(body)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) return clip(stripMarkup(heading[1]), MAX_TITLE) || undefined;
  }
  return undefined;
}

/** The first sentence of the first paragraph that is not a heading, markup stripped, clipped. */
export function firstSentence(body: string, max = MAX_SUMMARY): string | undefined {
  const paragraph: string[] = [];
  for (const line of proseLines(body)) {
    if (/^#{1,6}\s/.test(line) || /^(---|\*\*\*|___)\s*$/.test(line)) {
      if (paragraph.length) break;
      continue;
    }
    if (!line.trim()) {
      if (paragraph.length) break;
      continue;
    }
    paragraph.push(line.replace(/^\s*(?:[-*+]|\d+[.)]|>)\s+/, ""));
  }
  const text = stripMarkup(paragraph.join(" "));
  if (!text) return undefined;
  const end = /[.!?](?=\s|$)/.exec(text);
  return clip(end ? text.slice(0, end.index + 1) : text, max);
}

/** Cuts `text` to `max` characters at a word boundary, with an ellipsis when it had to cut. */
export function clip(text: string, max: number): string {
  const flat = oneLine(text);
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = flat[max - 1] === " " ? cut.length : cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, "")}…`;
}

/** Lines of the body outside fenced code blocks. */
function* proseLines(body: string): Generator<string> {
  let fence: string | undefined;
  for (const line of body.split(/\r?\n/)) {
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (marker && (fence === undefined || fence === marker)) {
      fence = fence === undefined ? marker : undefined;
      continue;
    }
    if (fence === undefined) yield line;
  }
}

/** `**a** [b](c) \`d\`` → `a b d`. */
function stripMarkup(text: string): string {
  return oneLine(
    text.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[*_`~]{1,3}([^*_`~]+)[*_`~]{1,3}/g, "$1")
      .replace(/<[^>]+>/g, ""),
  );
}
