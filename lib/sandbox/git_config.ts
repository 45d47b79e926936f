/**
 * Reading what git reads, without running git (the writing servers may not run programs): a `.git` pointer
 * file, a `commondir` file, and the entries of a git config file that move hooks or pull in more config
 * (`core.hooksPath`, `include.path`, `includeIf.<condition>.path`). Pure functions over text; lenient where
 * git is strict (git refuses a broken config outright, so reading more of one only protects more).
 * @module
 */

/** One `key = value` of a git config file; names lower case, a subsection as written. */
export interface GitConfigEntry {
  section: string;
  subsection: string | null;
  key: string;
  /** Null for a bare `key` (git's boolean true). */
  value: string | null;
}

/** The folder a `.git` pointer file names (as written, maybe relative to the file's folder), or null. */
export function parseGitPointer(text: string): string | null {
  // git: the file must start with "gitdir: "; the path runs to the end, trailing newlines and CRs cut.
  if (!text.startsWith("gitdir: ")) return null;
  const path = text.slice("gitdir: ".length).replace(/[\r\n]+$/, "");
  return path === "" ? null : path;
}

/** The folder a `commondir` file names (maybe relative to its git folder), or null. */
export function parseCommondir(text: string): string | null {
  const path = text.replace(/[\r\n]+$/, "");
  return path === "" ? null : path;
}

/** The entries of a git config file's text, in order. */
export function parseGitConfig(text: string): GitConfigEntry[] {
  const entries: GitConfigEntry[] = [];
  let section = "";
  let subsection: string | null = null;
  let at = 0;
  const skipSpaces = () => {
    while (at < text.length && (text[at] === " " || text[at] === "\t")) at++;
  };
  const skipLine = () => {
    while (at < text.length && text[at] !== "\n") at++;
  };
  while (at < text.length) {
    skipSpaces();
    const c = text[at];
    if (c === "\n" || c === "\r") at++;
    else if (c === "#" || c === ";") skipLine();
    else if (c === "[") {
      const header = /^\[\s*([A-Za-z0-9.-]+)\s*(?:"((?:[^"\\\n]|\\.)*)")?\s*\]/.exec(text.slice(at));
      if (!header) {
        skipLine();
        continue;
      }
      at += header[0].length;
      const name = header[1].toLowerCase();
      if (header[2] !== undefined) {
        section = name;
        subsection = header[2].replace(/\\(.)/g, "$1");
      } else {
        // The old `[section.subsection]` form: the subsection is lower-cased too.
        const dot = name.indexOf(".");
        section = dot < 0 ? name : name.slice(0, dot);
        subsection = dot < 0 ? null : name.slice(dot + 1);
      }
    } else {
      const key = /^[A-Za-z][A-Za-z0-9-]*/.exec(text.slice(at));
      if (!key) {
        skipLine();
        continue;
      }
      at += key[0].length;
      skipSpaces();
      let value: string | null = null;
      if (text[at] === "=") {
        at++;
        [value, at] = readValue(text, at);
      } else skipLine();
      entries.push({ section, subsection, key: key[0].toLowerCase(), value });
    }
  }
  return entries;
}

/** A value from `at` (just after `=`) to its line's end: quotes, escapes and continuation lines as git reads them. */
function readValue(text: string, at: number): [string, number] {
  let value = "";
  let quoted = false;
  let pendingSpace = ""; // Unquoted trailing blanks are dropped, inner ones kept.
  let started = false;
  for (; at < text.length; at++) {
    const c = text[at];
    if (c === "\n" && !quoted) break;
    if (c === "\r" && text[at + 1] === "\n" && !quoted) continue;
    if (!quoted && (c === "#" || c === ";")) {
      while (at < text.length && text[at] !== "\n") at++;
      break;
    }
    if (!quoted && (c === " " || c === "\t")) {
      if (started) pendingSpace += c;
      continue;
    }
    value += pendingSpace;
    pendingSpace = "";
    started = true;
    if (c === '"') quoted = !quoted;
    else if (c === "\\") {
      const next = text[++at];
      if (next === "\n") continue;
      if (next === "\r" && text[at + 1] === "\n") {
        at++;
        continue;
      }
      value += next === "n" ? "\n" : next === "t" ? "\t" : next === "b" ? "\b" : (next ?? "");
    } else value += c;
  }
  return [value, at];
}

/** The values of `section.key` (any subsection when `subsection` is undefined), in file order. */
export function configValues(
  entries: readonly GitConfigEntry[],
  section: string,
  key: string,
  subsection?: string | null,
): string[] {
  return entries
    .filter((entry) =>
      entry.section === section && entry.key === key && entry.value !== null &&
      (subsection === undefined || entry.subsection === subsection)
    )
    .map((entry) => entry.value!);
}
