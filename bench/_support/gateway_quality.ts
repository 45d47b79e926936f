/**
 * The quality half of bench/gateway_rank.ts: top-1, top-3, hard queries in the top 3 and honest "No tool
 * matches" on the project's fixture, the dev set and (when named) a held-out set, ours against plain BM25.
 * @module
 */
// deno-lint-ignore-file no-console -- a script whose output is the report.
import { bm25Baseline, buildIndex, searchIndex } from "../../mcp/gateway/rank.ts";
import type { CatalogTool, SearchHit } from "../../mcp/gateway/types.ts";
import { fixtureQueries, fixtureTools } from "../../tests/mcp/gateway/fixture/catalog.ts";
import {
  AGENTS_HELD_QUERIES,
  AGENTS_SET_DIR,
  BLIND_SET_DIR,
  DEV_SET_DIR,
  type LabeledQuery,
  loadQuerySet,
  scoreQuerySet,
  type SetScore,
} from "../../tests/mcp/gateway/fixture/query_set.ts";

type Ranker = (tools: readonly CatalogTool[]) => (query: string) => SearchHit[];

const RANKERS: { name: string; ranker: Ranker }[] = [
  {
    name: "ours",
    ranker: (tools) => {
      const index = buildIndex(tools);
      return (query) => searchIndex(index, query, { limit: 3 });
    },
  },
  {
    name: "plain BM25",
    ranker: (tools) => {
      const search = bm25Baseline(tools);
      return (query) => search(query, { limit: 3 });
    },
  },
];

const pct = (part: number, whole: number) => whole ? `${(100 * part / whole).toFixed(1)}%` : "–";

function row(set: string, ranker: string, tools: number, score: SetScore): string {
  const hard = score.hard ? `${score.hardTop3} of ${score.hard}` : "–";
  const none = score.noMatch ? `${score.noMatchRight} of ${score.noMatch}` : "–";
  return `| ${set} | ${ranker} | ${tools} | ${score.answerable + score.noMatch} | ` +
    `${pct(score.top1, score.answerable)} | ${pct(score.top3, score.answerable)} | ${hard} | ${none} | ` +
    `${score.emptyWrong} |`;
}

/** Prints the quality table; `heldout` adds a set directory, `misses` lists each set's misses (ours). */
export function printQuality(options: { heldout?: string | undefined; misses?: boolean }): void {
  const sets: { name: string; tools: CatalogTool[]; queries: LabeledQuery[] }[] = [
    { name: "project fixture", tools: fixtureTools(), queries: fixtureQueries() },
    { name: "dev set", ...loadQuerySet(DEV_SET_DIR) },
    { name: "blind set", ...loadQuerySet(BLIND_SET_DIR) },
    { name: "agents (tune half)", ...loadQuerySet(AGENTS_SET_DIR) },
    { name: "agents (held half)", ...loadQuerySet(AGENTS_SET_DIR, AGENTS_HELD_QUERIES) },
  ];
  if (options.heldout) sets.push({ name: "held-out", ...loadQuerySet(options.heldout) });
  console.log(
    "\nTop-1 and top-3 are of the queries with a right tool; hard: queries whose words the tools do not use; " +
      "no-match: queries with no right tool that got none; empty: queries with a right tool that got none.\n",
  );
  console.log("| Set | Ranker | Tools | Queries | Top-1 | Top-3 | Hard in top 3 | No-match right | Empty |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  const missed: string[] = [];
  for (const set of sets) {
    for (const { name, ranker } of RANKERS) {
      const score = scoreQuerySet(set.queries, ranker(set.tools));
      console.log(row(set.name, name, set.tools.length, score));
      if (options.misses && name === "ours") {
        for (const miss of score.misses) {
          missed.push(
            `${set.name}: "${miss.query}" → [${miss.got.join(", ")}] (want ${
              miss.expected.join(" | ") || "none"
            })`,
          );
        }
      }
    }
  }
  if (missed.length) console.log(`\nMisses (ours):\n${missed.join("\n")}`);
}
