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

/**
 * Irregular forms agents write for the verbs and nouns of tool text ("who sent it", "the build broke",
 * "frozen accounts", "indices"), and British doubled l's (cancelled, labelled), each to a form the rules
 * below stem like its base. Ambiguous ones (left, found, lost, met) are left out.
 */
const IRREGULAR: ReadonlyMap<string, string> = new Map(
  Object.entries({
    sent: "send",
    ran: "run",
    broke: "break",
    broken: "break",
    froze: "freeze",
    frozen: "freeze",
    built: "build",
    rebuilt: "rebuild",
    wrote: "write",
    written: "write",
    rewrote: "rewrite",
    rewritten: "rewrite",
    overwrote: "overwrite",
    overwritten: "overwrite",
    took: "take",
    taken: "take",
    gave: "give",
    given: "give",
    chose: "choose",
    chosen: "choose",
    spun: "spin",
    began: "begin",
    begun: "begin",
    hid: "hide",
    hidden: "hide",
    forgot: "forget",
    forgotten: "forget",
    paid: "pay",
    bought: "buy",
    sold: "sell",
    told: "tell",
    threw: "throw",
    thrown: "throw",
    caught: "catch",
    kept: "keep",
    made: "make",
    undid: "undo",
    undone: "undo",
    went: "go",
    shown: "show",
    seen: "see",
    saw: "see",
    got: "get",
    gotten: "get",
    withdrew: "withdraw",
    withdrawn: "withdraw",
    indices: "index",
    children: "child",
    cancelled: "canceled",
    cancelling: "canceling",
    labelled: "labeled",
    labelling: "labeling",
    modelled: "modeled",
    travelled: "traveled",
    signalled: "signaled",
  }),
);

/** The stem of one lowercased word; words of three letters or fewer, and non-words, stay as they are. */
export function stem(word: string): string {
  const irregular = IRREGULAR.get(word);
  if (irregular !== undefined) return stem(irregular);
  // British -ise/-yse spellings meet the -ize/-yze ones (organisation, authorised, analyse).
  // Three letters before the i or y, so every form of a word is changed or none ("raise", "raised" stay).
  word = word.replace(/^([a-z]{3,}[iy])s(e|ed|es|ing|ation|ations|er|ers)$/, "$1z$2");
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
