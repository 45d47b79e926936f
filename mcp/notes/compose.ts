/** What a write puts in a note's file: the caller's body and fields merged with the note as it was. */
import { ToolError } from "../../lib/mcp/errors.ts";
import {
  type FrontMatter,
  looksLikeFrontMatter,
  normalizeTags,
  parseNote,
  serializeNote,
} from "./front_matter.ts";
import { clip, firstHeading, firstSentence, MAX_SUMMARY, MAX_TITLE } from "./derive.ts";
import { slugify, titleFromSlug } from "./slug.ts";
import { type Note, sameInstant } from "./note_file.ts";
import { stripReadHeader } from "./read_header.ts";
import { mergeExtra } from "./extra_keys.ts";

/** What a write asks for; `body` is markdown, a copied front matter block at its top is taken apart. */
export interface WriteRequest {
  slug?: string;
  body: string;
  title?: string;
  summary?: string;
  tags?: string[];
  mode?: "replace" | "append";
  /** The `updated` the caller read; the write is refused when the note changed since. */
  expectedUpdated?: string;
}

/** The slug a note without one gets from its title; `invalid_argument` when the title has none to give. */
export function slugFromTitle(title: string | undefined): string {
  const slug = slugify(title ?? "");
  if (!slug) {
    throw new ToolError(
      "invalid_argument",
      `Cannot write a note without a slug: give "slug", or a "title" with letters or digits`,
    );
  }
  return slug;
}

/** Throws `conflict` unless the note is still at the version the caller read. */
export function checkExpected(slug: string, expected: string, existing: Note | undefined): void {
  if (!existing) {
    throw new ToolError(
      "conflict",
      `Cannot write note "${slug}": it was deleted since you read it; write without expected_updated to recreate it`,
    );
  }
  if (!sameInstant(expected, existing.version)) {
    throw new ToolError(
      "conflict",
      `Cannot write note "${slug}": it changed since you read it (updated "${existing.version}", ` +
        `you expected "${expected}"); notes_read it again, merge, and pass expected_updated "${existing.version}"`,
    );
  }
}

/** The new file text: the caller's body and fields, the rest kept from the note as it was. */
export function composeNote(
  slug: string,
  request: WriteRequest,
  { existing, updated }: { existing?: Note; updated: string },
): string {
  const append = request.mode === "append";
  // A model often writes back what notes_read showed it, header and front matter included: take them apart.
  // Not on append: an appended body is a dated section, and nothing in it may rename the note or drop the
  // keys a person added, however much it looks like front matter.
  const written = stripReadHeader(request.body);
  const parsed = append ? undefined : parseNote(written);
  const incoming = parsed && looksLikeFrontMatter(parsed)
    ? parsed
    : { front: { extra: [] } as FrontMatter, body: written, hasFrontMatter: false };
  const body = incoming.body.trim();
  const section = append ? `## ${updated.slice(0, 16).replace("T", " ")} UTC\n\n${body}` : body;
  const newBody = append && existing?.body.trim() ? `${existing.body.trimEnd()}\n\n${section}` : section;
  const oldFront = existing?.front;
  const tags = request.tags === undefined
    ? incoming.front.tags ?? oldFront?.tags ?? []
    : append
    ? [...(oldFront?.tags ?? []), ...request.tags]
    : request.tags;
  // An appended section starts with its date heading, which is no title.
  const title = request.title ?? incoming.front.title ?? oldFront?.title ??
    firstHeading(append ? existing?.body ?? "" : newBody) ?? titleFromSlug(slug);
  const summary = request.summary ?? editedSummary(incoming.front.summary, existing) ??
    (append ? oldFront?.summary : undefined) ?? firstSentence(newBody);
  return serializeNote({
    title: clip(title, MAX_TITLE),
    summary: summary ? clip(summary, MAX_SUMMARY) : undefined,
    tags: normalizeTags(tags),
    created: oldFront?.created ?? existing?.fileCreated ?? updated,
    updated,
    extra: incoming.hasFrontMatter
      ? mergeExtra(oldFront?.extra ?? [], incoming.front.extra)
      : oldFront?.extra ?? [],
  }, newBody);
}

/**
 * A summary from a copied front matter, unless it is the one the server derived from the old body and
 * the caller left untouched: that one is derived afresh, as if no front matter had been copied.
 */
function editedSummary(copied: string | undefined, existing: Note | undefined): string | undefined {
  const derived = existing && existing.front.summary === firstSentence(existing.body);
  return derived && copied === existing.front.summary ? undefined : copied;
}
