/**
 * The small YAML subset a note's front matter uses (`title`, `summary`, `tags`, `created`, `updated`),
 * parsed leniently and written strictly. Parsing never throws: a person may break the block by hand,
 * and whatever cannot be understood is kept verbatim so a later write does not destroy it.
 * @module
 */
import { cleanTerminalText } from "../../lib/text/terminal.ts";
import { emitScalar, parseFlowList, parseScalar } from "./yaml_scalar.ts";

/** The fields the server maintains, plus the lines it does not understand (kept as they were). */
export interface FrontMatter {
  title?: string;
  summary?: string;
  tags?: string[];
  created?: string;
  updated?: string;
  /** Unknown keys, comments and broken lines, re-emitted verbatim after the known keys. */
  extra: string[];
}

/** A note file split into its front matter and its markdown body. */
export interface ParsedNote {
  front: FrontMatter;
  body: string;
  /** Whether the file starts with a front matter block at all. */
  hasFrontMatter: boolean;
}

const KNOWN = new Set(["title", "summary", "tags", "created", "updated"]);
/** `key: value` (or `key:` opening a block list); group 1 the key, group 2 the value. */
export const KEY_LINE = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*))?$/;
/** A block list item, `  - value`; group 1 the value. */
export const LIST_ITEM = /^[ \t]*-[ \t]+(.*)$/;
/** A line that continues the entry above it. */
export const INDENTED = /^[ \t]+\S/;

/**
 * Splits a note file into front matter and body; tolerant of a missing closing `---` and stray lines.
 * A block that does not read as front matter (see {@link frontMatterEnd}) is body, its `---` a rule.
 */
export function parseNote(text: string): ParsedNote {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const extent = frontMatterEnd(lines);
  if (!extent) return { front: { extra: [] }, body: text, hasFrontMatter: false };
  const front = parseBlock(lines.slice(1, extent.end));
  const body = lines.slice(extent.bodyStart).join("\n").replace(/^(?:[ \t]*\n)+/, "");
  return { front, body, hasFrontMatter: true };
}

/**
 * Where the front matter opened by line 0 ends. The block runs to the closing `---` unless a blank line
 * inside it is followed by lines YAML cannot read, or by comments with no key after them: then the closing
 * line was forgotten and the later `---` is a markdown rule. Without a usable closing line, the key lines
 * right after `---` are the front matter if one of them is a key the server knows; else there is none.
 */
function frontMatterEnd(lines: string[]): { end: number; bodyStart: number } | undefined {
  if (lines[0]?.trimEnd() !== "---") return undefined;
  const close = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(line));
  if (close > 0 && readsAsYamlAfterBlank(lines.slice(1, close))) return { end: close, bodyStart: close + 1 };
  let end = 1;
  while (end < lines.length && (KEY_LINE.test(lines[end]) || LIST_ITEM.test(lines[end]))) end++;
  const known = lines.slice(1, end).some((line) => KNOWN.has(KEY_LINE.exec(line)?.[1].toLowerCase() ?? ""));
  return known ? { end, bodyStart: end } : undefined;
}

/** Whether the lines after the block's first blank line (if any) are keys, their lists and comments. */
function readsAsYamlAfterBlank(block: string[]): boolean {
  const blank = block.findIndex((line) => line.trim() === "");
  if (blank < 0) return true;
  let sawKey = false;
  let inList = false;
  for (const line of block.slice(blank + 1)) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const key = KEY_LINE.exec(line);
    if (key) {
      sawKey = true;
      inList = key[2] === undefined || key[2].trim() === "";
    } else if (!(inList && LIST_ITEM.test(line)) && !(sawKey && INDENTED.test(line))) {
      return false;
    }
  }
  return sawKey || block.slice(blank + 1).every((line) => line.trim() === "");
}

/**
 * Whether a parsed block is really front matter (a known key, and nothing but key lines, list items,
 * comments or blanks), not a body that merely opens with a `---` rule.
 */
export function looksLikeFrontMatter(parsed: ParsedNote): boolean {
  if (!parsed.hasFrontMatter) return false;
  const { title, summary, tags, created, updated, extra } = parsed.front;
  const known = [title, summary, tags, created, updated].some((value) => value !== undefined);
  const tidy = extra.every((line) =>
    line.trim() === "" || line.trimStart().startsWith("#") || KEY_LINE.test(line) || LIST_ITEM.test(line) ||
    INDENTED.test(line)
  );
  return known && tidy;
}

function parseBlock(lines: string[]): FrontMatter {
  const front: FrontMatter = { extra: [] };
  for (let i = 0; i < lines.length; i++) {
    const match = KEY_LINE.exec(lines[i]);
    // Lines that continue this entry: block list items and indented continuations.
    let next = i + 1;
    while (next < lines.length && (LIST_ITEM.test(lines[next]) || INDENTED.test(lines[next]))) next++;
    const continuation = lines.slice(i + 1, next);
    if (!match || !KNOWN.has(match[1].toLowerCase())) {
      front.extra.push(lines[i], ...continuation);
      i = next - 1;
      continue;
    }
    const key = match[1].toLowerCase() as "title" | "summary" | "tags" | "created" | "updated";
    const raw = (match[2] ?? "").trim();
    if (key === "tags") {
      const items = raw ? parseFlowList(raw) : continuation.map((line) => LIST_ITEM.exec(line)?.[1] ?? "");
      front.tags = normalizeTags(items.map(parseScalar));
    } else {
      const value = oneLine([raw, ...continuation].map((part) => part.trim()).join(" "));
      // Again after unquoting: a quoted value may spell control characters as escapes.
      const scalar = oneLine(parseScalar(value));
      if (scalar) front[key] = scalar;
    }
    i = next - 1;
  }
  return front;
}

/** Tags as the server stores them: lowercase, hyphens for spaces, letters, digits and `._/+#-`, no repeats. */
export function normalizeTags(tags: readonly string[]): string[] {
  const out = tags.map((tag) =>
    tag.trim().toLowerCase().replace(/\s+/g, "-").replace(/[^\p{L}\p{N}._/+#-]/gu, "").replace(
      /^[-._/+#]+/,
      "",
    ).slice(0, 40)
  ).filter(Boolean);
  return [...new Set(out)].slice(0, MAX_TAGS);
}

/** The most tags a note keeps. */
export const MAX_TAGS = 20;

/**
 * Collapses whitespace so a value fits on one line. Terminal escape sequences and control characters other
 * than whitespace are dropped: titles and summaries are shown to the model and kept in YAML.
 */
export function oneLine(text: string): string {
  return cleanTerminalText(text.replace(/[\r\x85]/g, " ")).replace(/(?![\t\n\v\f])\p{Cc}/gu, "")
    .replace(/\s+/g, " ").trim();
}

/** Writes a note: `---`, the known keys in a fixed order, the kept lines, `---`, a blank line, the body. */
export function serializeNote(front: FrontMatter, body: string): string {
  const lines = ["---"];
  if (front.title) lines.push(`title: ${emitScalar(front.title)}`);
  if (front.summary) lines.push(`summary: ${emitScalar(front.summary)}`);
  if (front.tags?.length) {
    lines.push(`tags: [${front.tags.map((tag) => emitScalar(tag, { flow: true })).join(", ")}]`);
  }
  if (front.created) lines.push(`created: ${emitScalar(front.created, { timestamp: true })}`);
  if (front.updated) lines.push(`updated: ${emitScalar(front.updated, { timestamp: true })}`);
  lines.push(...front.extra, "---", "");
  const text = body.replace(/^(?:[ \t]*\r?\n)+/, "").trimEnd();
  return `${lines.join("\n")}\n${text ? `${text}\n` : ""}`;
}
