/**
 * Query ranking for `notes_list`, simple enough to explain in one line: every query word scores by the
 * best field it appears in (slug or title 8, tag 5, summary 3, body 1); a note matching more words
 * ranks first, ties go to the newer note. A word matches a note word it starts (`test` finds `tests`);
 * `c++`, `c#`, `.net` and `node.js` are words of their own, so `c++` does not search `c`.
 * Common English words (`the`, `of`, `how`) are not searched: they would match nearly every note.
 * @module
 */

/** What ranking needs to know about a note. */
export interface Rankable {
  slug: string;
  title: string;
  summary: string;
  tags: readonly string[];
  body: string;
  /** Milliseconds since the epoch; breaks ties, newest first. */
  updatedMs: number;
}

/** Points per query word, by the best field it matches. */
export const FIELD_WEIGHTS = { title: 8, tags: 5, summary: 3, body: 1 } as const;

/** Lowercase words without diacritics: `"Déjà-vu, 2x!"` → `["deja", "vu", "2x"]`. */
export function words(text: string): string[] {
  return fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * A search term: letters and digits, joined by inner dots (`node.js`, `asp.net`), with a leading dot
 * (`.net`) and trailing `+` or `#` (`c++`, `c#`, `f#`): the symbols that tell tech terms apart.
 */
const TERM = /(?<![\p{L}\p{N}])\.?[\p{L}\p{N}]+(?:\.[\p{L}\p{N}]+)*[+#]*/gu;

/** The terms of a query, symbols kept: `"C++ on .NET"` → `["c++", "on", ".net"]`. */
export function terms(text: string): string[] {
  return fold(text).match(TERM) ?? [];
}

/**
 * The terms a note is found by: each term, its words and its dotted tails, so `asp.net` is found by
 * `asp.net`, `asp`, `net` and `.net`, while `c++` is not found by a query for `c#`.
 */
export function noteTerms(text: string): string[] {
  const out: string[] = [];
  for (const term of terms(text)) {
    out.push(term, ...term.split(/[^\p{L}\p{N}]+/u).filter(Boolean));
    for (let dot = term.indexOf(".", 1); dot > 0; dot = term.indexOf(".", dot + 1)) out.push(term.slice(dot));
  }
  return out;
}

function fold(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase();
}

/** Words too common to tell notes apart; a prefix match would also make `the` find `then` and `theme`. */
const STOP_WORDS = new Set(
  ("a an the of to in on at by for from with into about as and or but is are was were be been it its " +
    "this that these those how what when where why which who do does i we you my our your")
    .split(" "),
);

/** The terms of a query that are searched: {@link terms} without {@link STOP_WORDS}. */
export function searchWords(query: string): string[] {
  return terms(query).filter((term) => !STOP_WORDS.has(term));
}

/** The score of one note for the query words; 0 when no word matches. */
export function scoreNote(note: Rankable, queryWords: readonly string[]): number {
  const fields = {
    title: new Set([...noteTerms(note.title), ...noteTerms(note.slug)]),
    tags: new Set(note.tags.flatMap(noteTerms)),
    summary: new Set(noteTerms(note.summary)),
    body: new Set(noteTerms(note.body)),
  };
  let score = 0;
  for (const word of new Set(queryWords)) {
    for (const field of ["title", "tags", "summary", "body"] as const) {
      if (matches(fields[field], word)) {
        score += FIELD_WEIGHTS[field];
        break;
      }
    }
  }
  return score;
}

/**
 * The notes matching `query`, best first; all notes, newest first, when the query has no words; none
 * when it has only common words.
 */
export function rankNotes<T extends Rankable>(notes: readonly T[], query = ""): T[] {
  const queryWords = searchWords(query);
  const newestFirst = (a: T, b: T) => b.updatedMs - a.updatedMs || a.slug.localeCompare(b.slug);
  if (!words(query).length) return [...notes].sort(newestFirst);
  return notes.map((note) => ({ note, score: scoreNote(note, queryWords) }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || newestFirst(a.note, b.note))
    .map(({ note }) => note);
}

function matches(fieldWords: Set<string>, word: string): boolean {
  if (fieldWords.has(word)) return true;
  for (const candidate of fieldWords) if (candidate.startsWith(word)) return true;
  return false;
}
