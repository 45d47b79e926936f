/**
 * The "No tool matches" rule of gateway_search: the best hit must carry a share of what the query's words
 * could score at most, or nothing is shown. A word no tool uses counts against the query as part of a rare
 * word, less when it is written like a name (an argument the tool takes, not a thing the catalog lacks).
 * @module
 */
import { phraseWord } from "./synonyms.ts";
import { splitWords } from "./tokenize.ts";

/**
 * The least share of the query a tool must carry to be shown: its score over the most the query's words
 * could score, each word the catalog lacks counting UNKNOWN_WORD_WEIGHT of a rare word. Below it a hit
 * is a coincidence of one common word ("run the tests" against a notes server saying "run"), and "No
 * tool matches" is the honest answer.
 */
const MIN_EVIDENCE = 0.12;

/** A hit under this share of the gate is dropped even when the best hit passes it. */
const TAIL_SHARE = 0.5;

/** What a lowercase query word no tool uses counts in MIN_EVIDENCE's total, as a share of a rare word. */
const UNKNOWN_WORD_WEIGHT = 0.75;

/**
 * What a query word no tool uses counts when it is written like a name (`Acme`, `Priya`, `PROJ-17`,
 * `i-0abc`): an argument the tool takes, not a thing the catalog lacks.
 */
const UNKNOWN_NAME_WEIGHT = 0.25;

/** The query's words (as phraseWord gives them) written like names: capitalised, or with digits. */
export function nameLikeWords(query: string): Set<string> {
  const names = new Set<string>();
  for (const chunk of query.split(/\s+/)) {
    if (/^["'(]?[A-Z]|\d/.test(chunk)) { for (const word of splitWords(chunk)) names.add(phraseWord(word)); }
  }
  return names;
}

/**
 * Zeroes every score when the best is under the gate (MIN_EVIDENCE of the ceiling, unknown words
 * counted), else the scores under TAIL_SHARE of the gate; `names` are the query's name-like words.
 */
export function dropBelowGate(
  scores: Float64Array,
  ceiling: { max: number; unknownWords: readonly string[] },
  names: ReadonlySet<string>,
  rareWordScore: number,
): void {
  const unknown = ceiling.unknownWords.reduce(
    (sum, word) => sum + (names.has(word) ? UNKNOWN_NAME_WEIGHT : UNKNOWN_WORD_WEIGHT),
    0,
  );
  const gate = MIN_EVIDENCE * (ceiling.max + unknown * rareWordScore);
  // The best hit must reach the gate, or nothing is shown; a hit below half of it is noise beside one that does.
  const best = scores.reduce((most, score) => Math.max(most, score), 0);
  const floor = best < gate ? Infinity : gate * TAIL_SHARE;
  for (let doc = 0; doc < scores.length; doc++) if (scores[doc] < floor) scores[doc] = 0;
}
