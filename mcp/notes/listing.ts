/** The note index `notes_list` shows: one compact line per note, filtered, ranked and paged. */
import { clip } from "./derive.ts";
import { normalizeTags } from "./front_matter.ts";
import { rankNotes, searchWords, words } from "./rank.ts";
import type { Note } from "./note_file.ts";
import type { Listing } from "./store.ts";

/** Lines per page of the index. */
export const PAGE_SIZE = 100;
/** Characters of summary the whole index page may spend; each line gets its share within the bounds below. */
const SUMMARY_BUDGET = 2_500;
const SUMMARY_MIN = 48;
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
 * and tags that are words of the slug are left out, and summaries shorten as the page grows, so 50
 * notes cost about a thousand tokens. Pages past {@link PAGE_SIZE} lines and says how to get the rest.
 */
export function formatIndex(listing: Listing, options: IndexOptions): string {
  const total = listing.notes.length;
  const tag = options.tag === undefined ? undefined : normalizeTags([options.tag])[0] ?? "";
  const tagged = tag ? listing.notes.filter((note) => note.tags.includes(tag)) : listing.notes;
  const query = options.query?.trim() ?? "";
  const ranked = rankNotes(tagged, query);
  const offset = Math.max(0, Math.floor(options.offset ?? 0));
  const page = ranked.slice(offset, offset + PAGE_SIZE);
  const lines = [header(total, ranked.length, { ...options, tag, query })];
  const summaryChars = Math.min(SUMMARY_MAX, Math.max(SUMMARY_MIN, Math.floor(SUMMARY_BUDGET / page.length)));
  let day = "";
  for (const note of page) {
    if (!query && note.updated.slice(0, 10) !== day) {
      day = note.updated.slice(0, 10);
      lines.push(`# ${day}`);
    }
    lines.push(formatLine(note, { summaryChars, date: !!query }));
  }
  if (offset + page.length < ranked.length) {
    lines.push(
      `[${offset + 1}-${offset + page.length} of ${ranked.length} shown; pass offset=${
        offset + page.length
      } for more]`,
    );
  } else if (offset > 0 && page.length === 0 && ranked.length > 0) {
    lines.push(`[offset ${offset} is past the last of ${ranked.length}; use a smaller offset]`);
  }
  if (listing.skipped.length) {
    const names = listing.skipped.slice(0, 5).map((name) => `"${name}"`).join(", ");
    const more = listing.skipped.length > 5 ? ` and ${listing.skipped.length - 5} more` : "";
    lines.push(
      `[not listed: ${names}${more}: names that are not slugs (rename like "my-note.md") or not regular files]`,
    );
  }
  return lines.join("\n");
}

/** One index line: `slug — title — summary (tags, date)`, leaving out what repeats the slug. */
export function formatLine(note: Note, options: { summaryChars: number; date: boolean }): string {
  const slugWords = new Set(note.slug.split("-"));
  const parts = [note.slug];
  if (words(note.title).join("-") !== note.slug) parts.push(clip(note.title, 60));
  if (note.summary) parts.push(clip(note.summary, options.summaryChars));
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
