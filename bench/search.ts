/**
 * search-mcp benchmark: search_grep / search_glob end to end over stdio against raw ripgrep with the same
 * flags, and side by side with Desktop Commander's start_search and the reference filesystem server's
 * search_files, on the generated corpus. Prints a markdown table; numbers go in docs/benchmarks/search.md.
 * Usage: deno run -A bench/search.ts [files=50000] [runs=3]
 * @module
 */
import { encode } from "gpt-tokenizer";
import { Client, StdioClientTransport } from "../lib/mcp/sdk_client.ts";
import { requireRipgrep } from "../lib/ripgrep/locate.ts";
import { listServers, runArgs } from "../tools/catalog.ts";
import { startPeer } from "./_support/peers.ts";
import { ensureCorpus, FULL } from "./_support/search_corpus.ts";

type Text = { content: Array<{ type: string; text?: string }> };
const files = Number(Deno.args[0] ?? FULL.files);
const runs = Number(Deno.args[1] ?? 3);
// deno-lint-ignore no-console
const say = (message: string) => console.error(message);
const corpus = await ensureCorpus({ ...FULL, files }, say);
const rg = await requireRipgrep();
const textOf = (result: unknown) => ((result as Text).content ?? []).map((c) => c.text ?? "").join("\n");
const tokens = (text: string) => encode(text).length;

async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

/**
 * Runs each contender once to warm up (unless `warm` is false), then `n` rounds alternating between them so
 * the load of a shared machine falls on all alike; returns each one's median and last value.
 */
async function compare<T>(
  contenders: Array<() => Promise<T>>,
  options: { n?: number; warm?: boolean } = {},
): Promise<Array<{ ms: number; value: T }>> {
  const n = options.n ?? runs;
  const times: number[][] = contenders.map(() => []);
  const values: T[] = [];
  if (options.warm ?? true) { for (const fn of contenders) await fn(); }
  for (let round = 0; round < n; round++) {
    for (const [k, fn] of contenders.entries()) {
      const { ms, value } = await time(fn);
      times[k].push(ms);
      values[k] = value;
    }
  }
  return times.map((list, k) => {
    const sorted = [...list].sort((a, b) => a - b);
    return { ms: sorted[Math.floor(sorted.length / 2)], value: values[k] };
  });
}

async function rawRg(args: string[]): Promise<string> {
  const out = await new Deno.Command(rg.path, { args, cwd: corpus.root, stdout: "piped", stderr: "null" })
    .output();
  return new TextDecoder().decode(out.stdout);
}

const server = listServers().find((s) => s.name === "search")!;
const ours = new Client({ name: "bench", version: "0" });
await ours.connect(
  new StdioClientTransport({
    command: Deno.execPath(),
    args: runArgs(server),
    cwd: corpus.root,
    stderr: "ignore",
  }),
);
const call = async (name: string, args: Record<string, unknown>) =>
  textOf(await ours.callTool({ name, arguments: args }));

// The flags search_grep passes (its first, parallel pass), minus --json: what a user would type.
const RG_FLAGS = ["--no-config", "--no-messages", "--no-require-git", "--smart-case", "-n"];
const rows: string[] = [];
const row = (cells: Array<string | number>) => rows.push(`| ${cells.join(" | ")} |`);
const ms = (n: number) => `${Math.round(n)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

say(`corpus: ${corpus.files} files, ${(corpus.bytes / 1e6).toFixed(0)} MB; warming the page cache`);
await rawRg([...RG_FLAGS, "--no-ignore", "--hidden", "WARMUP_NEVER_FOUND", "."]);

const CASES: Array<[string, Record<string, unknown>]> = [
  ["selective (20 matches)", { pattern: "XYZZY_SELECTIVE" }],
  ["medium (336 matches), page 1", { pattern: "proxy42\\(\\w+, \\w+\\)" }],
  ["medium, page 2 (offset=100)", { pattern: "proxy42\\(\\w+, \\w+\\)", offset: 100 }],
  ["100k+ matches (121,938)", { pattern: "FIXME" }],
];
for (const [label, args] of CASES) {
  const pattern = String(args.pattern);
  const [mine, raw, rawJson] = await compare([
    () => call("search_grep", args),
    () => rawRg([...RG_FLAGS, "-e", pattern, "."]),
    () => rawRg([...RG_FLAGS, "--json", "-e", pattern, "."]),
  ]);
  row([
    `search_grep ${label}`,
    ms(mine.ms),
    `rg: ${ms(raw.ms)}`,
    ratio(mine.ms, raw.ms),
    `rg --json: ${ratio(mine.ms, rawJson.ms)}`,
    tokens(mine.value),
    `rg output: ${tokens(raw.value.slice(0, 2_000_000))}${raw.value.length > 2_000_000 ? "+" : ""}`,
  ]);
}

const [globMine, globRaw] = await compare([
  () => call("search_glob", { pattern: "*.rs" }),
  () => rawRg(["--files", "--no-config", "--no-require-git", "--sortr", "modified", "-g", "*.rs", "."]),
]);
row([
  "search_glob *.rs (newest first)",
  ms(globMine.ms),
  `rg --files: ${ms(globRaw.ms)}`,
  ratio(globMine.ms, globRaw.ms),
  "",
  tokens(globMine.value),
  "",
]);

/** Desktop Commander's search: start it, then poll get_more_search_results until it completes. */
async function desktopCommanderSearch(client: Client, pattern: string): Promise<string> {
  const start = textOf(
    await client.callTool({
      name: "start_search",
      arguments: { path: corpus.root, pattern, searchType: "content", contextLines: 0, ignoreCase: false },
    }),
  );
  const session = start.match(/session: (\S+)/)?.[1];
  let page = "";
  for (let i = 0; session && !/Search completed/.test(start) && i < 15_000; i++) {
    page = textOf(
      await client.callTool({
        name: "get_more_search_results",
        arguments: { sessionId: session, offset: 0, length: 100 },
      }),
    );
    if (/Search completed/.test(page)) break;
    // Their API is poll-based: this is how a client waits for it.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return `${start}\n${page}`;
}

// Peers: one round each, no warm-up (the page cache is warm by now): a 100k+ Desktop Commander run is long.
async function peerRows() {
  const dc = await startPeer("desktop-commander", { workspace: corpus.root });
  try {
    for (const [label, pattern] of [["selective", "XYZZY_SELECTIVE"], ["100k+", "FIXME"]]) {
      const [mine, theirs] = await compare([
        () => call("search_grep", { pattern }),
        () => desktopCommanderSearch(dc.client, pattern),
      ], { n: 1, warm: false });
      row([
        `vs Desktop Commander start_search, ${label}`,
        ms(mine.ms),
        ms(theirs.ms),
        ratio(mine.ms, theirs.ms),
        "",
        tokens(mine.value),
        tokens(theirs.value),
      ]);
    }
  } finally {
    await dc.close();
  }
  const fs = await startPeer("filesystem", { workspace: corpus.root });
  try {
    const [mine, theirs] = await compare([
      () => call("search_glob", { pattern: "*.rs" }),
      async () =>
        textOf(
          await fs.client.callTool({
            name: "search_files",
            arguments: { path: corpus.root, pattern: "**/*.rs" },
          }),
        ),
    ], { n: 1, warm: false });
    row([
      "vs filesystem search_files **/*.rs",
      ms(mine.ms),
      ms(theirs.ms),
      ratio(mine.ms, theirs.ms),
      "",
      tokens(mine.value),
      tokens(theirs.value),
    ]);
  } finally {
    await fs.close();
  }
}

try {
  if (!Deno.args.includes("--no-peers")) await peerRows();
} catch (error) {
  say(`peers skipped: ${error instanceof Error ? error.message : error}`);
}
await ours.close();

// deno-lint-ignore no-console
console.log([
  `Corpus: ${corpus.files} files, ${
    (corpus.bytes / 1e6).toFixed(0)
  } MB; ripgrep ${rg.version} (${rg.source}); median of ${runs} alternating warm rounds (peers: 1 round)`,
  "",
  "| case | ours | baseline | ratio | alt ratio | our tokens | baseline tokens |",
  "|---|---|---|---|---|---|---|",
  ...rows,
].join("\n"));
