/**
 * gateway_search's ranking: BM25F over a tool's name, title, description, parameters and server, with
 * stemming and the synonym table, lifted for the tool whose verb intent is the query's and gated so that
 * a query no tool answers gets none; plus plain BM25 over the same text as the baseline it has to beat.
 */
import { editDistance } from "../../lib/text/distance.ts";
import {
  type Bm25Index,
  buildBm25,
  type FieldSpec,
  rareWordScore,
  scoreBm25,
  scoreCeiling,
  topDocuments,
} from "./bm25.ts";
import { stem } from "./stem.ts";
import { phraseWord, type SynonymGroups, SYNONYMS } from "./synonyms.ts";
import { type Intent, intentMatch, LOOKUPS, toolIntents } from "./intent.ts";
import { queryConcepts } from "./query_concepts.ts";
import { identifierWords, plainTokens, queryWords, splitWords, STOPWORDS } from "./tokenize.ts";
import { toolText } from "./tool_text.ts";
import { dropBelowGate, nameLikeWords } from "./no_match.ts";
import type { CatalogTool, SearchHit } from "./types.ts";

/** Field weights: name > title > description > parameters > server (b: how much length is normalised). */
const FIELDS: readonly FieldSpec[] = [
  { weight: 5, b: 0.6 }, // name
  { weight: 3, b: 0.5 }, // title
  { weight: 2, b: 0.75 }, // description
  { weight: 1, b: 0.75 }, // parameter names and descriptions
  { weight: 0.8, b: 0.3 }, // server name and instructions
];

/**
 * How much a tool's own read-only annotation moves it, up when the query looks something up and it is
 * read-only or the query changes something and it is not, down otherwise.
 */
const READ_ONLY_SHARE = 0.1;

/** The first fields, where a tool says what it does: name, title, description. */
const ACTION_FIELDS = 3;

/** What the leading verb found only in a tool's parameters or server counts, against what it does. */
const ELSEWHERE_SHARE = 0.5;

/** What naming a tool's server in the query multiplies its score by. */
const SERVER_BONUS = 1.5;

/** What a tool whose verb is the query's (`create_instance` for "spin up a VM") multiplies its score by, less one. */
const INTENT_BONUS = 0.4;

/** Characters of a query that are ranked: a query is a phrase, and a longer one costs time per word. */
export const MAX_QUERY_CHARS = 1_000;

/** A catalog indexed for searchIndex and suggestNames. */
export interface SearchIndex {
  tools: readonly CatalogTool[];
  bm25: Bm25Index;
  synonyms: SynonymGroups;
  /** Each tool's server name as terms, for the bonus when a query names the server. */
  servers: readonly ReadonlySet<string>[];
  /** Each tool's verb intents. */
  intents: readonly ReadonlySet<Intent>[];
  /** The name, title and description alone: where a tool says what it does, for the query's verb. */
  actions: Bm25Index;
}

/** Options of searchIndex. */
export interface SearchOptions {
  /** How many hits at most (default 5). */
  limit?: number;
  /** Only this server's tools (its config name, any case). */
  server?: string;
}

function terms(words: readonly string[]): string[] {
  return words.filter((word) => !STOPWORDS.has(word)).map(stem);
}

/** The fields of one tool; `serverTerms` gives its server's (shared by all its tools, so split once). */
function toolFields(tool: CatalogTool, serverTerms: (server: string, instructions: string) => string[]) {
  const text = toolText(tool);
  return [
    terms(identifierWords(text.name)),
    terms(splitWords(text.title)),
    terms(splitWords(text.description)),
    terms([...text.paramNames.flatMap(identifierWords), ...text.paramDescriptions.flatMap(splitWords)]),
    serverTerms(text.server, text.serverInstructions),
  ];
}

/** Indexes a catalog for searchIndex; `synonyms` replaces the table of synonyms.json (for tests). */
export function buildIndex(tools: readonly CatalogTool[], synonyms: SynonymGroups = SYNONYMS): SearchIndex {
  const servers = tools.map((tool) => new Set(terms(identifierWords(tool.server))));
  const known = new Map<string, Map<string, string[]>>();
  const serverTerms = (server: string, instructions: string) => {
    let ofServer = known.get(server);
    if (!ofServer) known.set(server, ofServer = new Map());
    let found = ofServer.get(instructions);
    if (!found) {
      ofServer.set(instructions, found = terms([...identifierWords(server), ...splitWords(instructions)]));
    }
    return found;
  };
  const docs = tools.map((tool) => toolFields(tool, serverTerms));
  const intents = tools.map((tool) => toolIntents(tool.name, tool.description ?? ""));
  const actions = buildBm25(
    docs.map((fields) => fields.slice(0, ACTION_FIELDS)),
    FIELDS.slice(0, ACTION_FIELDS),
  );
  return { tools, bm25: buildBm25(docs, FIELDS), synonyms, servers, intents, actions };
}

function hits(tools: readonly CatalogTool[], scores: Float64Array, options: SearchOptions): SearchHit[] {
  const server = options.server?.toLowerCase();
  const keep = server === undefined ? undefined : (doc: number) => tools[doc].server.toLowerCase() === server;
  return topDocuments(scores, options.limit ?? 5, keep).map((doc) => ({
    tool: tools[doc],
    score: scores[doc],
  }));
}

/** The tools that best match a free-text query, best first; none when no word matched. */
export function searchIndex(index: SearchIndex, query: string, options: SearchOptions = {}): SearchHit[] {
  const words = queryWords(query.slice(0, MAX_QUERY_CHARS)).map(phraseWord);
  const { concepts: objects, verb, intents: wanted } = queryConcepts(words, index.synonyms);
  const scores = scoreBm25(index.bm25, objects);
  let ceiling = scoreCeiling(index.bm25, objects);
  if (verb) {
    // The verb is matched against what tools say they do, not their parameters: "email the invoice"
    // is no reason to pick a tool that takes an `email`.
    const verbScores = scoreBm25(index.actions, [verb]);
    const anywhere = scoreBm25(index.bm25, [verb]);
    for (let doc = 0; doc < scores.length; doc++) {
      scores[doc] += Math.max(verbScores[doc], ELSEWHERE_SHARE * anywhere[doc]);
    }
    const verbCeiling = scoreCeiling(index.actions, [verb]);
    ceiling = {
      max: ceiling.max + verbCeiling.max,
      unknown: ceiling.unknown + verbCeiling.unknown,
      unknownWords: [...ceiling.unknownWords, ...verbCeiling.unknownWords],
    };
  }
  dropBelowGate(scores, ceiling, nameLikeWords(query.slice(0, MAX_QUERY_CHARS)), rareWordScore(index.bm25));
  // Naming a server ("... on slack", "the s3 bucket") is the agent saying where to look.
  const named = new Set(words);
  index.servers.forEach((server, doc) => {
    if ([...server].some((term) => named.has(term))) scores[doc] *= SERVER_BONUS;
  });
  if (wanted.size > 0) {
    const lookup = [...wanted].every((intent) => LOOKUPS.has(intent));
    index.intents.forEach((intents, doc) => {
      if (scores[doc] === 0) return;
      scores[doc] *= 1 + INTENT_BONUS * intentMatch(wanted, intents);
      const readOnly = index.tools[doc].annotations?.readOnlyHint;
      if (readOnly !== undefined) {
        scores[doc] *= readOnly === lookup ? 1 + READ_ONLY_SHARE : 1 - READ_ONLY_SHARE;
      }
    });
  }
  return hits(index.tools, scores, options);
}

/** Up to `max` qualified names closest to an unknown one by edit distance, for "did you mean". */
export function suggestNames(index: SearchIndex, name: string, max = 3): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  // An agent may drop the server part, so the bare downstream name counts too.
  return index.tools
    .map((tool) => ({
      name: tool.qualifiedName,
      distance: Math.min(
        editDistance(wanted, tool.qualifiedName.toLowerCase(), limit),
        editDistance(wanted, tool.name.toLowerCase(), limit),
      ),
    }))
    .filter(({ distance }) => distance <= limit)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, max)
    .map(({ name }) => name);
}

/** Plain BM25 over all of a tool's text in one field: no field weights, stemming, stopwords or synonyms. */
export function bm25Baseline(
  tools: readonly CatalogTool[],
): (query: string, options?: SearchOptions) => SearchHit[] {
  const docs = tools.map((tool) => {
    const text = toolText(tool);
    const all = [text.name, text.title, text.description, ...text.paramNames, ...text.paramDescriptions];
    return [plainTokens([...all, text.server, text.serverInstructions].join(" "))];
  });
  const index = buildBm25(docs, [{ weight: 1, b: 0.75 }]);
  return (query, options = {}) => {
    const concepts = [...new Set(plainTokens(query))].map((word) => [{ words: [word], weight: 1 }]);
    return hits(tools, scoreBm25(index, concepts), options);
  };
}
