/**
 * Search on the generated 50k-file corpus (bench/_support/search_corpus.ts): search-mcp's search_grep
 * against mcp-ripgrep's search and Desktop Commander's start_search (polled to completion), interleaved
 * rounds after a warm-up, median wall time and o200k tokens of what the model gets back.
 * @module
 */
import { encode } from "gpt-tokenizer";
import type { Client } from "../../lib/mcp/sdk_client.ts";
import { startPeer } from "../_support/peers.ts";
import { ensureCorpus, FULL } from "../_support/search_corpus.ts";
import { type Area, interleave, median, type Row } from "./row.ts";
import { startOurs } from "../_support/ours.ts";
import { resultText } from "./toolkits.ts";

const ROUNDS = 3;
const CASES = [
  { label: "selective (XYZZY_SELECTIVE, 20 files)", pattern: "XYZZY_SELECTIVE" },
  { label: "medium (proxy42(…), 336 matches)", pattern: "proxy42\\(\\w+, \\w+\\)" },
];

async function text(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  return resultText(await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 })).text;
}

/** Desktop Commander's search is poll-based: start it, then ask for results until it says it completed. */
async function dcSearch(client: Client, root: string, pattern: string): Promise<string> {
  const start = await text(client, "start_search", {
    path: root,
    pattern,
    searchType: "content",
    contextLines: 0,
    ignoreCase: false,
  });
  const session = start.match(/session: (\S+)/)?.[1];
  let page = "";
  for (let i = 0; session && !/Search completed/.test(start) && i < 15_000; i++) {
    page = await text(client, "get_more_search_results", { sessionId: session, offset: 0, length: 100 });
    if (/Search completed/.test(page)) break;
    // Their API is poll-based: this is how a client waits for it.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return `${start}\n${page}`;
}

/** Measures the area (on the shared corpus; `_workspace` unused). */
export async function search(_workspace: string): Promise<Area> {
  const corpus = await ensureCorpus(FULL);
  const ours = await startOurs("search", corpus.root);
  const rg = await startPeer("ripgrep", { workspace: corpus.root });
  const dc = await startPeer("desktop-commander", { workspace: corpus.root });
  const rows: Row[] = [];
  try {
    for (const { label, pattern } of CASES) {
      const outputs = ["", "", ""];
      const variants = [
        async () => outputs[0] = await text(ours.client, "search_grep", { pattern }),
        async () => outputs[1] = await text(rg.client, "search", { pattern, path: corpus.root }),
        async () => outputs[2] = await dcSearch(dc.client, corpus.root, pattern),
      ];
      for (const variant of variants) await variant(); // warm-up: page cache, JIT
      const [oursMs, rgMs, dcMs] = (await interleave(ROUNDS, variants)).map(median);
      const [oursTok, rgTok, dcTok] = outputs.map((output) => encode(output).length);
      rows.push(
        {
          metric: `${label}: wall time`,
          unit: "ms",
          ours: oursMs,
          peers: { "mcp-ripgrep": rgMs, "Desktop Commander": dcMs },
          better: "lower",
        },
        {
          metric: `${label}: tokens returned`,
          unit: "tokens",
          ours: oursTok,
          peers: { "mcp-ripgrep": rgTok, "Desktop Commander": dcTok },
          better: "lower",
        },
      );
    }
  } finally {
    await ours.close();
    await rg.close();
    await dc.close();
  }
  return {
    id: "search",
    title: "Search on the 50k-file corpus",
    method:
      `The generated corpus (${corpus.files.toLocaleString("en-US")} files, ${
        Math.round(corpus.bytes / 1e6)
      } MB, gitignored build/ folder; bench/_support/search_corpus.ts). One warm-up call each, then ${ROUNDS} ` +
      "interleaved rounds, median. Each server's default call for a content search: `search_grep {pattern}`, " +
      "mcp-ripgrep `search {pattern, path}`, Desktop Commander `start_search` polled with " +
      "`get_more_search_results` until complete. No target in issue 17 for this area.",
    peerColumns: ["mcp-ripgrep", "Desktop Commander"],
    rows,
  };
}
