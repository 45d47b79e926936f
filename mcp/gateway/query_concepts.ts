/**
 * A query's ideas as the ranker scores them. The leading verb is one idea of its own, what the agent wants
 * done; matched as a word, a verb that is also a noun finds the wrong tools (`create_or_update_file` for
 * "file a bug", `check_domain` for "check my inbox"), so it and its synonyms count VERB_WEIGHT of what they
 * would, and the intent bonus (rank.ts) does the rest. The other words are expanded with the synonym table.
 * @module
 */
import { leadingVerb } from "./intent.ts";
import { type Concept, expandQuery, expandQueryAt, type SynonymGroups } from "./synonyms.ts";

/** What the leading verb's idea counts, against 1 for a word of what the query is about. */
export const VERB_WEIGHT = 0.85;

/** A query's ideas: what it is about, its leading verb's (at VERB_WEIGHT; none without one), its intents. */
export interface QueryConcepts {
  concepts: Concept[];
  verb: Concept | undefined;
  intents: ReadonlySet<string>;
}

/** The query's concepts and the intents of its leading verb, from its words (as phraseWord gives them). */
export function queryConcepts(words: readonly string[], groups: SynonymGroups): QueryConcepts {
  const verb = leadingVerb(words);
  if (verb.intents.size === 0) {
    return { concepts: expandQuery(words, groups), verb: undefined, intents: verb.intents };
  }
  // The verb's concept is the one that starts where it does: a phrase of the table may run past the
  // intent's own ("page me when" CPU is high is an alert, not a page).
  const concepts: Concept[] = [];
  let verbConcept: Concept | undefined;
  for (const { concept, at } of expandQueryAt(words, groups)) {
    if (at !== verb.start) concepts.push(concept);
    else verbConcept = concept.map(({ words, weight }) => ({ words, weight: weight * VERB_WEIGHT }));
  }
  return { concepts, verb: verbConcept, intents: verb.intents };
}
