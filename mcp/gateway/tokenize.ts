/** Words out of tool names and prose, for the gateway's search index and its queries. */
import { valueWords } from "./query_values.ts";

/** Words too common in queries and descriptions to say anything about a tool. */
export const STOPWORDS: ReadonlySet<string> = new Set([
  "a",
  "an",
  "the",
  "and",
  "or",
  "of",
  "in",
  "on",
  "to",
  "for",
  "from",
  "with",
  "by",
  "at",
  "as",
  "into",
  "is",
  "are",
  "be",
  "it",
  "its",
  "this",
  "that",
  "these",
  "those",
  "my",
  "me",
  "i",
  "we",
  "our",
  "you",
  "your",
  "do",
  "does",
  "what",
  "which",
  "how",
  "why",
  "can",
  "please",
  "all",
  "some",
  "any",
  "if",
  "via",
  "about",
  // Auxiliaries, pronouns and the remains of contractions ("what's" → what, s; "hasn't" → hasn, t); not
  // "don" or "won": "done" stems to "don", and "won" is a deal's stage.
  "was",
  "were",
  "been",
  "has",
  "have",
  "had",
  "will",
  "would",
  "should",
  "could",
  "there",
  "they",
  "them",
  "their",
  "he",
  "she",
  "his",
  "her",
  "us",
  "want",
  "need",
  "s",
  "t",
  "d",
  "m",
  "ll",
  "re",
  "ve",
  "doesn",
  "didn",
  "isn",
  "aren",
  "wasn",
  "hasn",
  "haven",
  // Words that ask for a list ("recent commits", "every bucket"): the intent says so, and as a term they
  // match whichever tool happens to say "recent".
  "recent",
  "latest",
  "every",
  "everything",
  // Fillers that say nothing about a tool ("does nothing", "just the failed jobs", "right now").
  "nothing",
  "something",
  "anything",
  "just",
  "really",
  "also",
  "still",
  "yet",
  "now",
  "currently",
  "again",
  "so",
  "than",
  "then",
  "when",
  "while",
  "too",
  "very",
  "am",
  "i'm",
  "let",
  "lets",
  "got",
  "gets",
  "one",
  "last",
  "past",
  "did",
  "few",
  "anymore",
  "up",
  "out",
  "off",
  "everyone",
  "anyone",
  "someone",
  "use",
  "using",
]);

/** Units that follow a number ("30 min", "100GB" split, "2 weeks"): with the number, an argument. */
const UNITS: ReadonlySet<string> = new Set([
  "min",
  "mins",
  "minute",
  "minutes",
  "h",
  "hr",
  "hrs",
  "hour",
  "hours",
  "day",
  "days",
  "week",
  "weeks",
  "month",
  "months",
  "sec",
  "secs",
  "seconds",
  "ms",
  "kb",
  "mb",
  "gb",
  "tb",
  "percent",
  "times",
]);

/**
 * Lowercased words of a text: split on everything but letters and digits, and inside words on camelCase
 * (`listIssues` → list, issues; `HTTPServer` → http, server). One pass over the text: it runs over
 * whatever a downstream server lists and over the agent's query, so no step may backtrack (a regular
 * expression like `([A-Z]+)([A-Z][a-z])` takes time quadratic in a run of capitals).
 */
export function splitWords(text: string): string[] {
  return camelSpaced(text).toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
}

const isUpper = (code: number) => code >= 65 && code <= 90; // A-Z
const isLower = (code: number) => code >= 97 && code <= 122; // a-z
const isDigit = (code: number) => code >= 48 && code <= 57; // 0-9

/**
 * `text` with a space before each capital that starts a word: after a lowercase letter or digit
 * (`listIssues`, `v2API`), and before the last capital of a run of two or more that a lowercase letter
 * follows (`HTTPServer` → `HTTP Server`), unless that letter is an `s` ending the word: an acronym's
 * plural (`PRs`, `VMs`, `IDs`, `URLs`) stays one word. ASCII only, as the splitting has always been.
 */
/** Whether `text[at]` is an `s` that ends a word (no lowercase letter after it). */
function pluralS(text: string, at: number): boolean {
  return text.charCodeAt(at) === 115 && !isLower(text.charCodeAt(at + 1)); // "s"
}

function camelSpaced(text: string): string {
  const parts: string[] = [];
  let start = 0;
  for (let i = 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isUpper(code)) continue;
    const before = text.charCodeAt(i - 1);
    const startsWord = isLower(before) || isDigit(before) ||
      (isUpper(before) && isLower(text.charCodeAt(i + 1)) && !pluralS(text, i + 1));
    if (!startsWord) continue;
    parts.push(text.slice(start, i));
    start = i;
  }
  if (start === 0) return text;
  parts.push(text.slice(start));
  return parts.join(" ");
}

/** The words of an identifier (split on `_`, `-`, `.`, camelCase) plus the whole identifier, lowercased. */
export function identifierWords(name: string): string[] {
  const words = splitWords(name);
  const whole = name.toLowerCase();
  return words.length > 1 || words[0] !== whole ? [...words, whole] : words;
}

/**
 * Query words: prose words, the kind of each value written in (valueWords: `jane@acme.io` → email), and
 * whole identifiers for any word written like one (`list_issues`, `getPage`).
 */
export function queryWords(query: string): string[] {
  const words: string[] = [];
  let afterNumber = false;
  for (const chunk of query.split(/\s+/)) {
    if (chunk === "") continue;
    if (afterNumber && UNITS.has(chunk.toLowerCase().replace(/[,.;:!?)]+$/, ""))) {
      afterNumber = false;
      continue;
    }
    const value = valueWords(chunk);
    afterNumber = value?.length === 0 && /\d/.test(chunk);
    if (value) {
      words.push(...value);
      continue;
    }
    words.push(...splitWords(chunk));
    if (/^[\p{L}\p{N}]+(?:[_.-][\p{L}\p{N}]+)+$|^[a-z]+[A-Z]/u.test(chunk)) words.push(chunk.toLowerCase());
  }
  return words;
}

/** Plain BM25's tokens: lowercased runs of letters and digits, nothing more. */
export function plainTokens(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
}
