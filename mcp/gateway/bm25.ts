/**
 * BM25F over documents made of weighted fields: a field's term frequency is length-normalised, weighted
 * and summed into one pseudo-frequency per document before saturation (Robertson & Zaragoza, 2009).
 * Plain BM25 is the one-field case.
 */
import type { Concept } from "./synonyms.ts";

/** How each field counts and how much its length is normalised. */
export interface FieldSpec {
  weight: number;
  /** Length normalisation, 0 (none) to 1 (full). */
  b: number;
}

/** A built index: postings of pre-normalised, field-weighted term frequencies. */
export interface Bm25Index {
  size: number;
  k1: number;
  postings: Map<string, { doc: number; tf: number }[]>;
}

/** Indexes documents, each a list of fields, each field a list of terms (same order as `fields`). */
export function buildBm25(
  docs: readonly (readonly string[][])[],
  fields: readonly FieldSpec[],
  k1 = 1.2,
): Bm25Index {
  const averages = fields.map((_, f) =>
    docs.reduce((sum, doc) => sum + doc[f].length, 0) / (docs.length || 1)
  );
  const postings = new Map<string, { doc: number; tf: number }[]>();
  docs.forEach((doc, d) => {
    const tf = new Map<string, number>();
    fields.forEach(({ weight, b }, f) => {
      const norm = 1 - b + b * (doc[f].length / (averages[f] || 1));
      for (const term of doc[f]) tf.set(term, (tf.get(term) ?? 0) + weight / norm);
    });
    for (const [term, value] of tf) {
      let list = postings.get(term);
      if (!list) postings.set(term, list = []);
      list.push({ doc: d, tf: value });
    }
  });
  return { size: docs.length, k1, postings };
}

/**
 * Every document's score for the query's concepts (0 where none matched): per concept, the best of its
 * alternatives, each alternative scoring the mean of its words' BM25 terms times its weight.
 */
export function scoreBm25(index: Bm25Index, concepts: readonly Concept[]): Float64Array {
  const scores = new Float64Array(index.size);
  const best = new Float64Array(index.size);
  const touched: number[] = [];
  for (const concept of concepts) {
    for (const { words, weight } of concept) {
      const alternative = new Map<number, number>();
      for (const word of words) {
        const list = index.postings.get(word);
        if (!list) continue;
        const share = weight * idf(index, list.length) / words.length;
        for (const { doc, tf } of list) {
          alternative.set(doc, (alternative.get(doc) ?? 0) + share * tf / (index.k1 + tf));
        }
      }
      for (const [doc, score] of alternative) {
        if (best[doc] === 0) touched.push(doc);
        if (score > best[doc]) best[doc] = score;
      }
    }
    for (const doc of touched) {
      scores[doc] += best[doc];
      best[doc] = 0;
    }
    touched.length = 0;
  }
  return scores;
}

/** The inverse document frequency of a term that `df` of the index's documents hold. */
function idf(index: Bm25Index, df: number): number {
  return Math.log(1 + (index.size - df + 0.5) / (df + 0.5));
}

/**
 * The most the query's concepts could score in one document (each word matched at an infinite term
 * frequency, by the concept's best alternative), and how many concepts no document matches at all (and
 * the first word of each).
 */
export function scoreCeiling(
  index: Bm25Index,
  concepts: readonly Concept[],
): { max: number; unknown: number; unknownWords: string[] } {
  let max = 0;
  let unknown = 0;
  const unknownWords: string[] = [];
  for (const concept of concepts) {
    let best = 0;
    for (const { words, weight } of concept) {
      let most = 0;
      for (const word of words) {
        const df = index.postings.get(word)?.length ?? 0;
        if (df > 0) most += weight * idf(index, df) / words.length;
      }
      best = Math.max(best, most);
    }
    if (best > 0) max += best;
    else {
      unknown++;
      unknownWords.push(concept[0]?.words[0] ?? "");
    }
  }
  return { max, unknown, unknownWords };
}

/** What a word that one document holds would score at most: the weight an unknown word is given. */
export function rareWordScore(index: Bm25Index): number {
  return idf(index, 1);
}

/** Indices of the best `limit` documents with a positive score, best first (ties keep document order). */
export function topDocuments(scores: Float64Array, limit: number, keep?: (doc: number) => boolean): number[] {
  const docs: number[] = [];
  for (let d = 0; d < scores.length; d++) if (scores[d] > 0 && (!keep || keep(d))) docs.push(d);
  return docs.sort((a, b) => scores[b] - scores[a] || a - b).slice(0, limit);
}
