/** Query expansion with the agent vocabulary of synonyms.json: "get rid of the bucket" also searches "delete". */
import table from "./synonyms.json" with { type: "json" };
import { stem } from "./stem.ts";
import { splitWords, STOPWORDS } from "./tokenize.ts";

/** One way to say a query's idea: its words (all should be there) and how much it counts. */
export interface Alternative {
  words: readonly string[];
  weight: number;
}

/** One idea of the query: a document scores by the best of its alternatives, so synonyms never add up. */
export type Concept = readonly Alternative[];

/** A group of stemmed phrases, each a list of stemmed words; `exact` when they are one name (an abbreviation). */
export interface SynonymGroup {
  phrases: readonly (readonly string[])[];
  exact: boolean;
}

/** The synonym groups a query is expanded with. */
export type SynonymGroups = readonly SynonymGroup[];

/** What a synonym counts, against 1 for a word the agent wrote. */
export const SYNONYM_WEIGHT = 0.5;

/** What a synonym of a whole phrase counts: a phrase names its idea more surely than one loose word. */
export const PHRASE_SYNONYM_WEIGHT = 0.8;

/** What an abbreviation's expansion counts, and the reverse ("PR" and "pull request" are one name). */
export const ABBREVIATION_WEIGHT = 1;

/** A query word as expandQuery takes it: stemmed, except a stopword, which phrases still match on. */
export function phraseWord(word: string): string {
  return STOPWORDS.has(word) ? word : stem(word);
}

function phraseWords(text: string): string[] {
  return splitWords(text).map(phraseWord);
}

/** Stems every phrase of the groups (as synonyms.json holds them) once, for expandQuery. */
export function compileSynonyms(groups: readonly (readonly string[])[], exact = false): SynonymGroups {
  return groups.map((group) => ({ phrases: group.map(phraseWords), exact }));
}

/** A phrase's words that can match a tool: stopwords are not in the index. */
function searchable(words: readonly string[]): readonly string[] {
  return words.filter((word) => !STOPWORDS.has(word));
}

/** The groups and abbreviations of synonyms.json, compiled. */
export const SYNONYMS: SynonymGroups = [
  ...compileSynonyms(table.groups),
  ...compileSynonyms(table.abbreviations, true),
];

/** A phrase of a group, found by its first word. */
interface Member {
  group: SynonymGroup;
  index: number;
  phrase: readonly string[];
}

const byFirstWord = new WeakMap<SynonymGroups, Map<string, Member[]>>();

/** The members of `groups` by their first word, built once per table. */
function membersByFirstWord(groups: SynonymGroups): Map<string, Member[]> {
  let members = byFirstWord.get(groups);
  if (members) return members;
  members = new Map();
  for (const group of groups) {
    group.phrases.forEach((phrase, index) => {
      if (phrase.length === 0) return;
      let list = members!.get(phrase[0]);
      if (!list) members!.set(phrase[0], list = []);
      list.push({ group, index, phrase });
    });
  }
  byFirstWord.set(groups, members);
  return members;
}

/** Articles a query puts inside a phrase ("add a column", "file a bug") that the table writes without. */
const ARTICLES: ReadonlySet<string> = new Set(["a", "an", "the"]);

/** How many query words from `at` the phrase spans (an article between two of its words included), or 0. */
function spanAt(words: readonly string[], at: number, phrase: readonly string[]): number {
  let i = at;
  for (let p = 0; p < phrase.length; p++, i++) {
    if (p > 0 && ARTICLES.has(words[i]) && !ARTICLES.has(phrase[p])) i++; // one article, so no rescans
    if (words[i] !== phrase[p]) return 0;
  }
  return i - at;
}

/** One concept: `own` at weight 1, the other phrases of each matched member's group at theirs. */
function alternatives(own: readonly string[], matched: readonly Member[], loose: number): Alternative[] {
  const best = new Map<string, Alternative>();
  const offer = (phrase: readonly string[], weight: number) => {
    const words = searchable(phrase);
    const key = words.join(" ");
    if (words.length > 0 && (best.get(key)?.weight ?? 0) < weight) best.set(key, { words, weight });
  };
  offer(own, 1);
  for (const { group, index } of matched) {
    const weight = group.exact ? ABBREVIATION_WEIGHT : loose;
    group.phrases.forEach((phrase, i) => i !== index && offer(phrase, weight));
  }
  return [...best.values()];
}

/**
 * The concepts of a query's words (as phraseWord gives them). A matched multi-word phrase ("get rid of")
 * is one concept: the phrase at weight 1 and its groups' other members at PHRASE_SYNONYM_WEIGHT. Every
 * other word is a concept of itself at weight 1 and its groups' other members at SYNONYM_WEIGHT. An
 * abbreviation and its expansion stand for each other at ABBREVIATION_WEIGHT.
 */
export function expandQuery(words: readonly string[], groups: SynonymGroups = SYNONYMS): Concept[] {
  return expandQueryAt(words, groups).map(({ concept }) => concept);
}

/** expandQuery's concepts, each with the index of the query word it starts at. */
export function expandQueryAt(
  words: readonly string[],
  groups: SynonymGroups = SYNONYMS,
): { concept: Concept; at: number }[] {
  const members = membersByFirstWord(groups);
  const concepts: { concept: Concept; at: number }[] = [];
  for (let at = 0; at < words.length;) {
    let longest = 1;
    let span = 1;
    let phrases: Member[] = [];
    const single: Member[] = [];
    for (const member of members.get(words[at]) ?? []) {
      const spanned = spanAt(words, at, member.phrase);
      if (spanned === 0) continue;
      if (member.phrase.length === 1) single.push(member);
      else if (member.phrase.length > longest) {
        [longest, span, phrases] = [member.phrase.length, spanned, [member]];
      } else if (member.phrase.length === longest) phrases.push(member);
    }
    if (phrases.length > 0) {
      const own = words.slice(at, at + span).filter((word) => !ARTICLES.has(word));
      concepts.push({ concept: alternatives(own, phrases, PHRASE_SYNONYM_WEIGHT), at });
      at += span;
    } else {
      if (!STOPWORDS.has(words[at])) {
        concepts.push({ concept: alternatives([words[at]], single, SYNONYM_WEIGHT), at });
      }
      at++;
    }
  }
  return concepts.filter(({ concept }) => concept.length > 0);
}
