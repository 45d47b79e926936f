/**
 * A light English stemmer for tool search (a Porter-lite): enough that "issues"/"issue",
 * "listing"/"list", "deleted"/"delete", "deployment"/"deploy" meet, nothing that needs a dictionary.
 */

const VOWEL = /[aeiouy]/;

/** Ends in a doubled consonant that a suffix doubled (`stopped` → `stopp`), not one that belongs (`pull`). */
function undouble(word: string): string {
  const last = word[word.length - 1];
  if (word.length > 3 && last === word[word.length - 2] && !"lsz".includes(last) && !VOWEL.test(last)) {
    return word.slice(0, -1);
  }
  return word;
}

function strip(word: string, suffix: string, minStem: number): string | undefined {
  if (!word.endsWith(suffix)) return undefined;
  const stem = word.slice(0, -suffix.length);
  return stem.length >= minStem && VOWEL.test(stem) ? stem : undefined;
}

/**
 * A verb's noun in "-ion" brought to the verb's stem: configuration → configur(e), notification →
 * notifi (notify), organization → organiz(e), subscription → subscrib(e), creation → creat(e).
 */
function nounOfVerb(word: string): string | undefined {
  // "production" is where things run (prod), not a "product": kept whole so the two never meet.
  if (!/[ts]ion$/.test(word) || word === "production") return undefined;
  const noun = strip(word, "ion", 4);
  if (noun === undefined) return undefined;
  if (noun.endsWith("ificat")) return noun.slice(0, -3); // notificat → notifi
  if (/(?:urat|[iy]zat|[iy]sat)$/.test(noun)) return noun.slice(0, -2); // configurat → configur
  if (noun.endsWith("script")) return noun.slice(0, -3) + "ib"; // subscript → subscrib
  return noun;
}

/** The stem of one lowercased word; words of three letters or fewer, and non-words, stay as they are. */
export function stem(word: string): string {
  // Plural acronyms: "vms", "prs", "dbs", and "ids", "ips" (any two letters and an s: "has" → "ha" too,
  // harmless, as the index and the query are stemmed alike).
  if (/^[b-df-hj-np-tv-xz]{2,4}s$|^[a-z][a-rt-z]s$/.test(word)) return word.slice(0, -1);
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = w.slice(0, -3) + "y";
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (/(?:x|ch|sh|zz)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && (!/(?:ss|us|is)$/.test(w) || /^[a-z]{2}is$/.test(w))) w = w.slice(0, -1); // "apis"

  const base = strip(w, "ing", 3) ?? strip(w, "ed", 3);
  if (base !== undefined) w = undouble(base);
  // Then the suffix of the word under "-ed"/"-ing" too, so "triggered" meets "trigger" and "filtered" "filter".
  w = strip(w, "ment", 4) ?? strip(w, "ly", 4) ?? strip(w, "er", 4) ?? nounOfVerb(w) ?? w;
  if (w.endsWith("y") && w.length > 3 && !VOWEL.test(w[w.length - 2])) w = w.slice(0, -1) + "i";
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  return w;
}
