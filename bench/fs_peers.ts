/**
 * fs-mcp side by side with the reference filesystem server and Desktop Commander on the same files and
 * tree: wall time of the first call and the median of 3 repeats, result size in o200k tokens and lines,
 * and each server's peak RSS.
 * Run: `deno run -A bench/fs_peers.ts` (installs the peers into bench/.peers/ and the corpus on first run).
 * @module
 */
import { join } from "node:path";
import { encode } from "gpt-tokenizer";
import type { Client } from "../lib/mcp/sdk_client.ts";
import { startPeer } from "./_support/peers.ts";
import { CORPUS, ensureCorpus, median, num, peakRssMb, print, startFs, timedCall } from "./_support/fs.ts";

const RUNS = 3;
const { big, src, tree } = await ensureCorpus();

type Call = [tool: string, args: Record<string, unknown>];
interface Server {
  label: string;
  start(): Promise<{ client: Client; pid: number | null; close(): Promise<void> }>;
  tools: string[];
  cases: Record<string, Call>;
}

const CASES = [
  "src.py (5,000 lines): first 2000 lines",
  "500 MB log: first 2000 lines",
  "500 MB log: last 2000 lines",
  "tree (12k files, 2k gitignored, node_modules): listing",
];

const servers: Server[] = [
  {
    label: "fs-mcp",
    start: () => startFs(CORPUS),
    tools: ["fs_read", "fs_list", "fs_stat"],
    cases: {
      [CASES[0]]: ["fs_read", { path: src, limit: 2000 }],
      [CASES[1]]: ["fs_read", { path: big, limit: 2000 }],
      [CASES[2]]: ["fs_read", { path: big, offset: -2000 }],
      [CASES[3]]: ["fs_list", { path: tree }],
    },
  },
  {
    label: "reference filesystem",
    start: () => startPeer("filesystem", { workspace: CORPUS }),
    tools: ["read_text_file", "directory_tree", "get_file_info"],
    cases: {
      [CASES[0]]: ["read_text_file", { path: src, head: 2000 }],
      [CASES[1]]: ["read_text_file", { path: big, head: 2000 }],
      [CASES[2]]: ["read_text_file", { path: big, tail: 2000 }],
      [CASES[3]]: ["directory_tree", { path: tree }],
    },
  },
  {
    label: "Desktop Commander",
    start: () => startPeer("desktop-commander", { workspace: CORPUS }),
    tools: ["read_file", "list_directory", "get_file_info"],
    cases: {
      [CASES[0]]: ["read_file", { path: src, offset: 0, length: 2000 }],
      [CASES[1]]: ["read_file", { path: big, offset: 0, length: 2000 }],
      [CASES[2]]: ["read_file", { path: big, offset: -2000 }],
      [CASES[3]]: ["list_directory", { path: tree, depth: 2 }],
    },
  },
];

const results = new Map<string, Map<string, string>>();
const surface = new Map<string, number>();
const peaks = new Map<string, number>();
for (const server of servers) {
  const started = await server.start();
  try {
    const { tools } = await started.client.listTools();
    surface.set(
      server.label,
      tools.filter((t) => server.tools.includes(t.name)).reduce(
        (sum, t) => sum + encode(t.name + (t.description ?? "") + JSON.stringify(t.inputSchema)).length,
        0,
      ),
    );
    const row = new Map<string, string>();
    for (const [label, [tool, args]] of Object.entries(server.cases)) {
      try {
        const first = await timedCall(started.client, tool, args);
        const repeat = await median(RUNS, async () => (await timedCall(started.client, tool, args)).ms);
        const lines = first.text.split("\n").length.toLocaleString("en-US");
        const error = first.error ? " (error)" : "";
        row.set(
          label,
          `${num(first.ms)} / ${num(repeat)} ms · ${
            first.tokens.toLocaleString("en-US")
          } tok · ${lines} lines${error}`,
        );
      } catch (error) {
        row.set(label, `failed: ${(error instanceof Error ? error.message : String(error)).slice(0, 60)}`);
      }
    }
    peaks.set(server.label, await peakRssMb(started.pid));
    results.set(server.label, row);
  } finally {
    await started.close();
  }
}

print(`| case | ${servers.map((s) => s.label).join(" | ")} |`);
print(`|---|${servers.map(() => "---").join("|")}|`);
for (const label of CASES) {
  print(`| ${label} | ${servers.map((s) => results.get(s.label)?.get(label) ?? "").join(" | ")} |`);
}
print(
  `| peak RSS of the server | ${servers.map((s) => `${num(peaks.get(s.label) ?? NaN)} MB`).join(" | ")} |`,
);
print(
  `| tools/list tokens of the 3 comparable tools | ${
    servers.map((s) => `${surface.get(s.label)} (${s.tools.join(", ")})`).join(" | ")
  } |`,
);
print(`\nCells: first call / median of ${RUNS} repeats · o200k tokens · lines of the result text.`);
print(`Corpus: ${join("bench", ".corpus", "fs")}.`);
