/**
 * A strict INI reader and a canonical writer for the backends' config files. The server never hands a
 * workspace file to a backend as it is: it reads it here, vets what it read, and writes it out again, so
 * what the backend parses (Python's configparser for sqlfluff, a Rust crate for sqruff, each with its own
 * rules for continuations, delimiters and case) is exactly what was vetted.
 * @module
 */

/** One `key = value` line (continuation lines folded in). */
export interface IniEntry {
  key: string;
  value: string;
  /** 1-based line of the key, for messages. */
  line: number;
}

/** One `[section]` with its entries, in file order. */
export interface IniSection {
  /** The name between the brackets, trimmed. */
  name: string;
  entries: IniEntry[];
}

/** Why a line is not INI; the caller words the error. */
export class IniSyntaxError extends Error {
  constructor(readonly line: number, readonly reason: string) {
    super(`line ${line} ${reason}`);
  }
}

// Characters a value may not hold: line breaks other than \n would split a line for one parser and not
// for the other; other control characters have no business in a config.
// deno-lint-ignore no-control-regex -- matching control characters is the point.
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f\u0085\u2028\u2029]/;
const HEADER = /^\[([^\]\r\n]*)\]\s*(?:[#;].*)?$/;
const ENTRY = /^([^=:]*?)\s*[=:]\s*(.*)$/;

/**
 * The sections of `text`. Comment lines start with `#` or `;`; a line indented deeper than the key before
 * it continues that key's value, as configparser reads it (folded in with a space: the values that span
 * lines are comma lists). Anything else that is not `[section]` or `key = value` is an error.
 */
export function parseIni(text: string): IniSection[] {
  const sections: IniSection[] = [];
  let current: IniSection | undefined;
  let last: { entry: IniEntry; indent: number } | undefined;
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    const trimmed = raw.trim();
    const indent = raw.length - raw.trimStart().length;
    if (!trimmed || /^[#;]/.test(trimmed)) continue;
    if (FORBIDDEN.test(raw)) throw new IniSyntaxError(line, "holds a control character");
    if (last && indent > last.indent) {
      last.entry.value = [last.entry.value, trimmed].filter(Boolean).join(" ");
      continue;
    }
    last = undefined;
    const header = trimmed.match(HEADER);
    if (header) {
      current = { name: header[1].trim(), entries: [] };
      sections.push(current);
      continue;
    }
    const entry = trimmed.match(ENTRY);
    if (!entry || !entry[1]) throw new IniSyntaxError(line, "is not a [section], key = value or comment");
    if (!current) throw new IniSyntaxError(line, "has a key before the first [section]");
    const found = { key: entry[1], value: entry[2], line };
    current.entries.push(found);
    last = { entry: found, indent };
  }
  return sections;
}

/**
 * `sections` as INI text both backends read alike: each section once (entries of a repeated one merged,
 * since sqlfluff crashes on a repeated header), one `key = value` a line, a later key replacing an
 * earlier one, no indentation, no comments.
 */
export function writeIni(sections: readonly IniSection[]): string {
  const merged = new Map<string, Map<string, string>>();
  for (const section of sections) {
    const entries = merged.get(section.name) ?? new Map<string, string>();
    merged.set(section.name, entries);
    for (const { key, value } of section.entries) entries.set(key, value);
  }
  return [...merged].map(([name, entries]) =>
    [`[${name}]`, ...[...entries].map(([key, value]) => `${key} = ${value}`)].join("\n") + "\n"
  ).join("\n");
}
