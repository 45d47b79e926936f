/** Note slugs: the one name a note goes by, and the file name it lives in. */
import { editDistance } from "../../lib/text/distance.ts";
import { ToolError } from "../../lib/mcp/errors.ts";

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

/** Returns `value` when it is a valid slug; otherwise throws `invalid_argument` with a suggestion. */
export function validateSlug(value: string): string {
  if (isSlug(value)) return value;
  const suggestion = slugify(value);
  const hint = suggestion && suggestion !== value ? `; did you mean "${suggestion}"?` : "";
  const reason = RESERVED.test(value) ? "it is a name Windows reserves" : "it is not a slug";
  throw new ToolError(
    "invalid_argument",
    `Cannot use slug ${JSON.stringify(value)}: ${reason}; use 1-64 lowercase letters, digits and ` +
      `inner hyphens like "build-commands"${hint}`,
  );
}

/** `"Ünïcode & Build: Steps!"` → `"unicode-build-steps"`; `""` when nothing usable remains. */
export function slugify(text: string): string {
  const words = text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase().split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX_SLUG_LENGTH) {
      if (!slug) slug = word.slice(0, MAX_SLUG_LENGTH);
      break;
    }
    slug = next;
  }
  return RESERVED.test(slug) ? `${slug}-note` : slug;
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
