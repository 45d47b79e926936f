/**
 * gateway_search ranking: latency per search on a 1,000-tool catalog (the fixture's 334 tools under three
 * sets of server names) and top-1/top-3 on the fixture's queries, ours against plain BM25; then the same
 * quality measures on the dev set (tests/mcp/gateway/fixture/dev) and on a held-out set of the same shape
 * when one is named: `GATEWAY_HELDOUT_DIR=<dir> deno task bench gateway_rank`, or
 * `deno run -A bench/gateway_rank.ts [--heldout <dir>] [--misses]` (--misses lists what each set missed).
 * @module
 */
// deno-lint-ignore-file no-console -- a script whose output is the report.
import { bm25Baseline, buildIndex, searchIndex } from "../mcp/gateway/rank.ts";
import type { SearchHit } from "../mcp/gateway/types.ts";
import { accuracy, fixtureQueries, fixtureTools } from "../tests/mcp/gateway/fixture/catalog.ts";
import { printQuality } from "./_support/gateway_quality.ts";

const ROUNDS = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/** Milliseconds per search over every query, ROUNDS times, after one warm-up round. */
function latency(queries: string[], search: (query: string) => SearchHit[]): { p50: number; p95: number } {
  for (const query of queries) search(query);
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const query of queries) {
      const start = performance.now();
      search(query);
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

/** A hit on a renamed copy (`github-2__list_issues`) is as right as the original; copies count once. */
function original(hits: SearchHit[]): SearchHit[] {
  const seen = new Set<string>();
  const distinct: SearchHit[] = [];
  for (const hit of hits) {
    const qualifiedName = `${hit.tool.server.replace(/-\d+$/, "")}__${hit.tool.name}`;
    if (!seen.has(qualifiedName)) distinct.push({ ...hit, tool: { ...hit.tool, qualifiedName } });
    seen.add(qualifiedName);
  }
  return distinct;
}

const fixture = fixtureTools();
const large = [...fixture, ...fixtureTools(1), ...fixtureTools(2)].slice(0, 1000);
const queries = fixtureQueries();
const texts = queries.map((q) => q.query);

let start = performance.now();
const index = buildIndex(large);
const buildMs = performance.now() - start;
start = performance.now();
const baseline = bm25Baseline(large);
const baselineBuildMs = performance.now() - start;
const smallIndex = buildIndex(fixture);
const smallBaseline = bm25Baseline(fixture);

const rows = [
  {
    name: "ours (BM25F + stems + synonyms)",
    build: buildMs,
    time: latency(texts, (q) => searchIndex(index, q)),
    small: accuracy(queries, (q) => searchIndex(smallIndex, q, { limit: 3 })),
    large: accuracy(queries, (q) => original(searchIndex(index, q, { limit: 9 }))),
  },
  {
    name: "plain BM25",
    build: baselineBuildMs,
    time: latency(texts, (q) => baseline(q)),
    small: accuracy(queries, (q) => smallBaseline(q, { limit: 3 })),
    large: accuracy(queries, (q) => original(baseline(q, { limit: 9 }))),
  },
];

const pct = (share: number) => `${(100 * share).toFixed(1)}%`;
console.log(`gateway_search ranking: ${large.length} tools, ${queries.length} queries × ${ROUNDS} rounds\n`);
console.log(
  "| Ranker | Index build | Search p50 | Search p95 | Top-1 (334 tools) | Top-3 (334) | Top-1 (1,000) | Top-3 (1,000) |",
);
console.log("|---|---|---|---|---|---|---|---|");
for (const row of rows) {
  console.log(
    `| ${row.name} | ${row.build.toFixed(1)} ms | ${row.time.p50.toFixed(3)} ms | ${
      row.time.p95.toFixed(3)
    } ms | ` +
      `${pct(row.small.top1)} | ${pct(row.small.top3)} | ${pct(row.large.top1)} | ${pct(row.large.top3)} |`,
  );
}

const flag = Deno.args.indexOf("--heldout");
const heldout = flag >= 0 ? Deno.args[flag + 1] : Deno.env.get("GATEWAY_HELDOUT_DIR");
try {
  printQuality({ heldout: heldout || undefined, misses: Deno.args.includes("--misses") });
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  Deno.exit(1);
}
