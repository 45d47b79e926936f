/** The note index `notes_list` shows: one compact line per note, filtered, ranked and paged. */
import { clip } from "./derive.ts";
import { normalizeTags } from "./front_matter.ts";
import { rankNotes, searchWords, words } from "./rank.ts";
import type { Note } from "./note_file.ts";
import { estimateTokens } from "./token_estimate.ts";
import type { Listing } from "./store.ts";

/** Most lines per page of the index. */
export const PAGE_SIZE = 100;
/** What one page may cost, in estimated o200k tokens: a margin under the thousand the docs promise. */
export const PAGE_TOKENS = 950;
/** Room kept for the paging footer, `[1-100 of 1,000 shown; pass offset=100 for more]`. */
const FOOTER_TOKENS = 20;
/** Summary characters per line: a share of what the lines leave of the page, within these bounds. */
const SUMMARY_MIN = 40;
const SUMMARY_MAX = 100;
/** Tags shown per index line. */
const MAX_INDEX_TAGS = 5;

/** What to show of a listing. */
export interface IndexOptions {
  query?: string;
  tag?: string;
  offset?: number;
  /** The notes folder as shown to the model, e.g. `.continue-notes/`. */
  folder: string;
}

/**
 * `slug — title — summary (tags, 2026-11-30)`, best match first for a query; newest first otherwise,
 * under one `# <date>` line per day instead of a date on every line. A title that only repeats the slug
 * and tags that are words of the slug are left out. A page holds what fits {@link PAGE_TOKENS} (at most
 * {@link PAGE_SIZE} lines): every line's slug, title, tags and date first, then, when all of them fit,
 * summaries in what is left, the first lines first; a page that stops early says how to get the rest.
 */
export function formatIndex(listing: Listing, options: IndexOptions): string {
  const total = listing.notes.length;
  const tag = options.tag === undefined ? undefined : normalizeTags([options.tag])[0] ?? "";
  const tagged = tag ? listing.notes.filter((note) => note.tags.includes(tag)) : listing.notes;
  const query = options.query?.trim() ?? "";
  const ranked = rankNotes(tagged, query);
  const offset = Math.max(0, Math.floor(options.offset ?? 0));
  const head = header(total, ranked.length, { ...options, tag, query });
  const footer = skippedFooter(listing.skipped);
  const candidates = ranked.slice(offset, offset + PAGE_SIZE);
  const room = PAGE_TOKENS - estimateTokens(`${head}\n`) - (footer ? estimateTokens(footer) : 0);
  // Room for the paging footer is kept only when the page turns out to need one.
  let page = fitPage(candidates, { budget: room, date: !!query });
  if (offset + page.count < ranked.length) {
    page = fitPage(candidates, { budget: room - FOOTER_TOKENS, date: !!query });
  }
  const lines = [head, ...page.lines];
  if (offset + page.count < ranked.length) {
    lines.push(
      `[${offset + 1}-${offset + page.count} of ${ranked.length} shown; pass offset=${
        offset + page.count
      } for more]`,
    );
  } else if (offset > 0 && page.count === 0 && ranked.length > 0) {
    lines.push(`[offset ${offset} is past the last of ${ranked.length}; use a smaller offset]`);
  }
  if (footer) lines.push(footer);
  return lines.join("\n");
}

/**
 * The lines of the notes that fit `budget` tokens (at least one note): day headers and lines without
 * summaries first, so breadth wins; when every line fits, summaries share what is left, first lines first.
 */
function fitPage(notes: Note[], { budget, date }: { budget: number; date: boolean }) {
  const rows: { note: Note; day?: string; line: string }[] = [];
  let day = "";
  for (const note of notes) {
    const newDay = !date && note.updated.slice(0, 10) !== day ? `# ${note.updated.slice(0, 10)}` : undefined;
    const line = formatLine(note, { summaryChars: 0, date });
    const cost = estimateTokens(`${line}\n`) + (newDay ? estimateTokens(`${newDay}\n`) : 0);
    if (rows.length && cost > budget) break;
    budget -= cost;
    if (newDay) day = note.updated.slice(0, 10);
    rows.push({ note, day: newDay, line });
  }
  // Each summary gets an even share of what is left, in characters (English prose runs about 4 a token;
  // the separator ` — ` costs one), so an early one that cost more than its share shortens the later ones.
  // A page that could not hold every note's line spends nothing on summaries.
  const withSummary = rows.length < notes.length ? [] : rows.filter((row) => row.note.summary);
  for (const [i, row] of withSummary.entries()) {
    const share = 4 * (Math.floor(budget / (withSummary.length - i)) - 1);
    const line = formatLine(row.note, {
      summaryChars: Math.min(SUMMARY_MAX, Math.max(SUMMARY_MIN, share)),
      date,
    });
    const cost = estimateTokens(line) - estimateTokens(row.line);
    if (cost > budget) break;
    budget -= cost;
    row.line = line;
  }
  return { count: rows.length, lines: rows.flatMap((row) => row.day ? [row.day, row.line] : [row.line]) };
}

function skippedFooter(skipped: readonly string[]): string | undefined {
  if (!skipped.length) return undefined;
  const names = skipped.slice(0, 5).map((name) => `"${clip(name, 60)}"`).join(", ");
  const more = skipped.length > 5 ? ` and ${skipped.length - 5} more` : "";
  return `[not listed: ${names}${more}: names that are not slugs (rename like "my-note.md") or not regular files]`;
}

/** One index line: `slug — title — summary (tags, date)`, leaving out what repeats the slug. */
export function formatLine(note: Note, options: { summaryChars: number; date: boolean }): string {
  const slugWords = new Set(note.slug.split("-"));
  const parts = [note.slug];
  if (words(note.title).join("-") !== note.slug) parts.push(clip(note.title, 60));
  if (note.summary && options.summaryChars > 0) parts.push(clip(note.summary, options.summaryChars));
  const meta = note.tags.filter((tag) => !slugWords.has(tag)).slice(0, MAX_INDEX_TAGS);
  if (options.date) meta.push(note.updated.slice(0, 10));
  return meta.length ? `${parts.join(" — ")} (${meta.join(", ")})` : parts.join(" — ");
}

function header(
  total: number,
  shown: number,
  options: { query: string; tag?: string; folder: string },
): string {
  if (total === 0) return `No notes yet in ${options.folder}; notes_write saves one`;
  const filters = [
    options.query ? `match "${options.query}"` : "",
    options.tag ? `tagged "${options.tag}"` : "",
  ].filter(Boolean).join(" and ");
  const order = options.query ? "best first" : "newest first";
  if (!filters) return `${total} note${total === 1 ? "" : "s"} in ${options.folder}, ${order}:`;
  if (shown === 0 && options.query && !searchWords(options.query).length && words(options.query).length) {
    return `No notes ${filters} (of ${total}): common words like these are not searched; use a more specific word`;
  }
  if (shown === 0) return `No notes ${filters} (of ${total}); notes_list without filters shows all`;
  return `${shown} of ${total} notes ${filters}, ${order}:`;
}
