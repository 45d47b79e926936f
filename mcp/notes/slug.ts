/** Note slugs: the one name a note goes by, and the file name it lives in. */
import { editDistance } from "../../lib/text/distance.ts";
import { ToolError } from "../../lib/mcp/errors.ts";
import { transliterate } from "./transliterate.ts";

/** Lowercase letters, digits and inner hyphens, 1-64 characters: safe as a file name on every OS. */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Names Windows reserves whatever the extension: `con.md` cannot be created there. */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/** The longest slug. */
export const MAX_SLUG_LENGTH = 64;

/** Whether `value` is a valid slug. */
export function isSlug(value: string): boolean {
  return SLUG.test(value) && !RESERVED.test(value);
}

/**
 * The slug `value` names (`foo` or the file name `foo.md`, as notes_read and notes_list show it);
 * otherwise throws `invalid_argument` with a suggestion.
 */
export function validateSlug(value: string): string {
  const slug = value.replace(/\.md$/i, "");
  if (isSlug(slug)) return slug;
  const suggestion = slugify(slug);
  const hint = suggestion && suggestion !== slug ? `; did you mean "${suggestion}"?` : "";
  const reason = RESERVED.test(slug) ? "it is a name Windows reserves" : "it is not a slug";
  throw new ToolError(
    "invalid_argument",
    `Cannot use slug ${JSON.stringify(value)}: ${reason}; use 1-64 lowercase letters, digits and ` +
      `inner hyphens like "build-commands"${hint}`,
  );
}

/**
 * `"Ünïcode & Build: Steps!"` → `"unicode-build-steps"`, `"Заметки"` → `"zametki"`. Letters no table
 * spells (`"构建 CI"`) add a stable hash of the text, `"ci-1a2b3c"` or `"note-1a2b3c"`, so such titles
 * neither vanish nor collide; `""` when the text has no letters or digits at all.
 */
export function slugify(text: string): string {
  const latin = transliterate(text);
  const lost = /[\p{L}\p{N}]/u.test(latin.replace(/[a-z0-9]+/g, ""));
  const suffix = lost ? `-${shortHash(text.normalize("NFC").trim().toLowerCase())}` : "";
  let slug = "";
  for (const word of latin.split(/[^a-z0-9]+/).filter(Boolean)) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX_SLUG_LENGTH - suffix.length) {
      if (!slug) slug = word.slice(0, MAX_SLUG_LENGTH - suffix.length);
      break;
    }
    slug = next;
  }
  if (suffix) return `${slug || "note"}${suffix}`;
  return RESERVED.test(slug) ? `${slug}-note` : slug;
}

/** Six hex digits of the FNV-1a hash of `text`: short, and the same on every machine and run. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193);
  return ((hash >>> 0) & 0xffffff).toString(16).padStart(6, "0");
}

/** `"build-commands"` → `"Build commands"`: the title of a note that never had one. */
export function titleFromSlug(slug: string): string {
  const words = slug.replaceAll("-", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The existing slugs closest to `wanted` (shared prefix, containment or a small edit distance). */
export function closestSlugs(wanted: string, existing: readonly string[], max = 3): string[] {
  const scored = existing.map((slug) => ({ slug, distance: editDistance(wanted, slug) }))
    .filter(({ slug, distance }) =>
      distance <= Math.max(2, Math.floor(wanted.length / 3)) ||
      (wanted.length >= 3 && (slug.includes(wanted) || wanted.includes(slug)))
    );
  return scored.sort((a, b) => a.distance - b.distance || a.slug.localeCompare(b.slug)).slice(0, max)
    .map(({ slug }) => slug);
}
