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

/** Groups of stemmed phrases, each phrase a list of stemmed words. */
export type SynonymGroups = readonly (readonly (readonly string[])[])[];

/** What a synonym counts, against 1 for a word the agent wrote. */
export const SYNONYM_WEIGHT = 0.5;

/** What a synonym of a whole phrase counts: a phrase names its idea more surely than one loose word. */
export const PHRASE_SYNONYM_WEIGHT = 0.8;

/** A query word as expandQuery takes it: stemmed, except a stopword, which phrases still match on. */
export function phraseWord(word: string): string {
  return STOPWORDS.has(word) ? word : stem(word);
}

function phraseWords(text: string): string[] {
  return splitWords(text).map(phraseWord);
}

/** Stems every phrase of the groups (as synonyms.json holds them) once, for expandQuery. */
export function compileSynonyms(groups: readonly (readonly string[])[]): SynonymGroups {
  return groups.map((group) => group.map(phraseWords));
}

/** A phrase's words that can match a tool: stopwords are not in the index. */
function searchable(words: readonly string[]): readonly string[] {
  return words.filter((word) => !STOPWORDS.has(word));
}

/** The groups of synonyms.json, compiled. */
export const SYNONYMS: SynonymGroups = compileSynonyms(table.groups);

function startsAt(words: readonly string[], at: number, phrase: readonly string[]): boolean {
  return phrase.length > 0 && phrase.every((word, i) => words[at + i] === word);
}

/**
 * The concepts of a query's words (as phraseWord gives them). A matched multi-word phrase ("get rid of") is one concept: the
 * phrase at weight 1 and its group's other members at PHRASE_SYNONYM_WEIGHT. Every other word is a concept of itself at weight 1 and its groups' other members at
 * SYNONYM_WEIGHT.
 */
export function expandQuery(words: readonly string[], groups: SynonymGroups = SYNONYMS): Concept[] {
  const concepts: Concept[] = [];
  const alternatives = (
    own: readonly string[],
    ownWeight: number,
    matched: [number, number][],
    weight: number,
  ) => {
    const best = new Map<string, Alternative>();
    const offer = (phrase: readonly string[], weight: number) => {
      const words = searchable(phrase);
      const key = words.join(" ");
      if (words.length > 0 && (best.get(key)?.weight ?? 0) < weight) best.set(key, { words, weight });
    };
    offer(own, ownWeight);
    for (const [g, m] of matched) groups[g].forEach((phrase, i) => i !== m && offer(phrase, weight));
    return [...best.values()];
  };
  for (let at = 0; at < words.length;) {
    let phrase: { length: number; matched: [number, number][] } | undefined;
    const single: [number, number][] = [];
    groups.forEach((group, g) =>
      group.forEach((member, m) => {
        if (!startsAt(words, at, member)) return;
        if (member.length === 1) single.push([g, m]);
        else if (!phrase || member.length > phrase.length) {
          phrase = { length: member.length, matched: [[g, m]] };
        } else if (member.length === phrase.length) {
          phrase.matched.push([g, m]);
        }
      })
    );
    if (phrase) {
      const own = words.slice(at, at + phrase.length);
      concepts.push(alternatives(own, 1, phrase.matched, PHRASE_SYNONYM_WEIGHT));
      at += phrase.length;
    } else {
      if (!STOPWORDS.has(words[at])) concepts.push(alternatives([words[at]], 1, single, SYNONYM_WEIGHT));
      at++;
    }
  }
  return concepts.filter((concept) => concept.length > 0);
}
