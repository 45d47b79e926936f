/**
 * Verb intents: what a query asks done (create, list, delete, undo, ...) and what a tool does, read from
 * the verbs of synonyms.json's `intents`. Agents lead with the verb ("spin up a VM", "nuke the bucket");
 * tools are named verb first (`create_instance`) or say it first ("Remove all keys"). A tool whose intent
 * is the query's ranks above its siblings that share only the noun (`list_instances`).
 * @module
 */
import table from "./synonyms.json" with { type: "json" };
import { phraseWord } from "./synonyms.ts";
import { splitWords } from "./tokenize.ts";

/** An intent's name, as synonyms.json spells it. */
export type Intent = string;

/** Each intent's phrases, stemmed like the query words they are compared with, by their first word. */
export type IntentTable = ReadonlyMap<string, readonly { intent: Intent; phrase: readonly string[] }[]>;

/** Intents that are all ways of looking something up: one stands in for another at half the bonus. */
export const LOOKUPS: ReadonlySet<Intent> = new Set(["list", "read", "search"]);

/** Words an agent puts before the verb ("please", "can you", "I need to"), skipped to find it. */
const LEAD_INS: ReadonlySet<string> = new Set([
  "please",
  "can",
  "could",
  "would",
  "you",
  "i",
  "we",
  "need",
  "want",
  "to",
  "let",
  "s",
  "me",
  "us",
  "just",
  "go",
  "ahead",
  "and",
  "then",
  "now",
  "quickly",
  "help",
  "try",
].map(phraseWord));

/** Compiles an intent table (as synonyms.json holds it). */
export function compileIntents(intents: Readonly<Record<string, readonly string[]>>): IntentTable {
  const table = new Map<string, { intent: Intent; phrase: string[] }[]>();
  for (const [intent, phrases] of Object.entries(intents)) {
    for (const phrase of phrases.map((text) => splitWords(text).map(phraseWord))) {
      if (phrase.length === 0) continue;
      let list = table.get(phrase[0]);
      if (!list) table.set(phrase[0], list = []);
      list.push({ intent, phrase });
    }
  }
  return table;
}

/** The intents of synonyms.json, compiled. */
export const INTENTS: IntentTable = compileIntents(table.intents);

/** The intents whose phrases start at `words[at]`, by the longest phrase matched, and its length. */
function intentsAt(
  words: readonly string[],
  at: number,
  table: IntentTable,
): { intents: Set<Intent>; length: number } {
  let length = 0;
  let intents = new Set<Intent>();
  for (const { intent, phrase } of table.get(words[at]) ?? []) {
    if (phrase.length < length || !phrase.every((word, i) => words[at + i] === word)) continue;
    if (phrase.length > length) [length, intents] = [phrase.length, new Set()];
    intents.add(intent);
  }
  return { intents, length };
}

/** The query's leading verb: its intents and where it stands (after any lead-in); no intents if none. */
export function leadingVerb(
  words: readonly string[],
  table: IntentTable = INTENTS,
): { intents: Set<Intent>; start: number; length: number } {
  let start = 0;
  while (start < words.length && LEAD_INS.has(words[start])) start++;
  return { ...intentsAt(words, start, table), start };
}

/** The query's intents: those of its first words after any lead-in, if they are a verb of the table. */
export function queryIntents(words: readonly string[], table: IntentTable = INTENTS): Set<Intent> {
  return leadingVerb(words, table).intents;
}

/** A tool's intents: those of its name's first word and of its description's first word. */
export function toolIntents(name: string, description: string, table: IntentTable = INTENTS): Set<Intent> {
  const intents = new Set<Intent>();
  // The name's first word, else its last: a verb in the middle is often a noun (`browser_file_upload`),
  // and the description of a prefixed name (`fs_list`, `notes_write`) says the verb first.
  const words = splitWords(name).map(phraseWord);
  let fromName = intentsAt(words, 0, table).intents;
  // Named noun first (`pods_list`, `dns_record_create`, `users_profile_get`): the verb is the last word.
  if (fromName.size === 0 && words.length > 1) fromName = intentsAt(words, words.length - 1, table).intents;
  for (const intent of fromName) intents.add(intent);
  const first = splitWords(description.slice(0, 40)).slice(0, 3).map(phraseWord);
  for (const intent of intentsAt(first, 0, table).intents) intents.add(intent);
  return intents;
}

/** How well a tool's intents meet the query's: 1 the same, 0.5 two kinds of lookup, 0 otherwise or unknown. */
export function intentMatch(query: ReadonlySet<Intent>, tool: ReadonlySet<Intent>): number {
  let match = 0;
  for (const intent of query) {
    if (tool.has(intent)) return 1;
    if (LOOKUPS.has(intent) && [...tool].some((other) => LOOKUPS.has(other))) match = 0.5;
  }
  return match;
}
