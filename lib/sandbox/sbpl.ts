/**
 * Writing paths into a Seatbelt profile (SBPL, the Scheme dialect `sandbox-exec -p` reads) so that no name can
 * end a string early or widen a rule. Pure functions.
 * - A string literal escapes only `\` and `"`: SBPL's reader (TinyScheme's) keeps every other byte, control
 *   characters included, as it is, so a path holding a newline or a quote stays one path.
 * - A deny rule matches by regex, on every spelling the file system treats as the same name: APFS ignores case
 *   and Unicode normalisation by default, so `~/.SSH` and a decomposed `é` must not slip past a deny.
 * @module
 */

/** An SBPL string literal holding `text` exactly. */
export function sbplString(text: string): string {
  if (text.includes("\0")) {
    throw new Error(`A Seatbelt profile cannot hold a NUL byte: ${JSON.stringify(text)}`);
  }
  return `"${text.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/** Regex metacharacters of the POSIX extended syntax Seatbelt's matcher uses. */
const META = /[.^$*+?()[\]{}|\\]/;

/**
 * A regex (source text) matching `text` in any letter case and either Unicode normalisation: ASCII letters
 * become `[aA]`, other characters with several spellings a group `(é|É|é)`, metacharacters are escaped.
 */
export function anySpelling(text: string): string {
  let out = "";
  for (const char of text.normalize("NFC")) {
    const spellings = new Set<string>();
    for (const cased of [char, char.toLowerCase(), char.toUpperCase()]) {
      // A case change that makes several characters (`ß` → `SS`) is not how file systems fold names.
      if ([...cased].length !== 1) continue;
      spellings.add(cased);
      spellings.add(cased.normalize("NFD"));
    }
    const list = [...spellings];
    if (list.length === 1) out += escapeMeta(char);
    // Brackets only for ASCII: the matcher may read bytes, and a multi-byte character is not one byte.
    else if (/^[a-z]$/i.test(char)) out += `[${char.toLowerCase()}${char.toUpperCase()}]`;
    else out += `(${list.map((spelling) => [...spelling].map(escapeMeta).join("")).join("|")})`;
  }
  return out;
}

/** The regex (source) of an absolute path and, when `subtree`, everything under it. */
export function pathRegex(path: string, options: { subtree: boolean }): string {
  return `^${anySpelling(trimSlash(path))}${options.subtree ? "(/|$)" : "$"}`;
}

/** `(regex "…")` of {@link pathRegex}. */
export function regexFilter(path: string, options: { subtree: boolean }): string {
  return `(regex ${sbplString(pathRegex(path, options))})`;
}

/** `(subpath "…")`: the path and everything under it, spelled exactly (for allow rules). */
export function subpathFilter(path: string): string {
  return `(subpath ${sbplString(trimSlash(path))})`;
}

/** `path` without a trailing slash (`/` stays `/`); refuses a relative path, which no rule can mean. */
export function trimSlash(path: string): string {
  if (!path.startsWith("/")) {
    throw new Error(`A Seatbelt rule needs an absolute path: ${JSON.stringify(path)}`);
  }
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === "" ? "/" : trimmed;
}

/** Every folder above `path`, nearest first, `/` excluded: `/a/b/c` → `/a/b`, `/a`. */
export function ancestors(path: string): string[] {
  const found: string[] = [];
  let at = trimSlash(path);
  while (at.lastIndexOf("/") > 0) {
    at = at.slice(0, at.lastIndexOf("/"));
    found.push(at);
  }
  return found;
}

function escapeMeta(char: string): string {
  return META.test(char) ? `\\${char}` : char;
}
