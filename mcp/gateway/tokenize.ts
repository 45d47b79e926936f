/** Words out of tool names and prose, for the gateway's search index and its queries. */

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
]);

/**
 * Lowercased words of a text: split on everything but letters and digits, and inside words on camelCase
 * (`listIssues` → list, issues; `HTTPServer` → http, server).
 */
export function splitWords(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
  return spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
}

/** The words of an identifier (split on `_`, `-`, `.`, camelCase) plus the whole identifier, lowercased. */
export function identifierWords(name: string): string[] {
  const words = splitWords(name);
  const whole = name.toLowerCase();
  return words.length > 1 || words[0] !== whole ? [...words, whole] : words;
}

/** Query words: prose words, and whole identifiers for any word written like one (`list_issues`, `getPage`). */
export function queryWords(query: string): string[] {
  const words: string[] = [];
  for (const chunk of query.split(/\s+/)) {
    if (chunk === "") continue;
    words.push(...splitWords(chunk));
    if (/^[\p{L}\p{N}]+(?:[_.-][\p{L}\p{N}]+)+$|^[a-z]+[A-Z]/u.test(chunk)) words.push(chunk.toLowerCase());
  }
  return words;
}

/** Plain BM25's tokens: lowercased runs of letters and digits, nothing more. */
export function plainTokens(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
}
