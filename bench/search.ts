/**
 * search-mcp benchmark: search_grep / search_glob end to end over stdio against raw ripgrep with the same
 * flags, and side by side with Desktop Commander's start_search and the reference filesystem server's
 * search_files, on the generated corpus. Prints a markdown table; numbers go in docs/benchmarks/search.md.
 * Usage: deno run -A bench/search.ts [files=50000] [runs=3]
 * @module
 */
import { encode } from "gpt-tokenizer";
import { Client, StdioClientTransport } from "../lib/mcp/sdk.ts";
import { requireRipgrep } from "../lib/ripgrep/locate.ts";
import { listServers, runArgs } from "../tools/catalog.ts";
import { startPeer } from "./_support/peers.ts";
import { ensureCorpus, FULL } from "./search_corpus.ts";

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

/** Median of `n` timings; the first (cold) run is a warm-up and not counted. */
async function median<T>(fn: () => Promise<T>, n = runs): Promise<{ ms: number; value: T }> {
  let last = await time(fn);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    last = await time(fn);
    times.push(last.ms);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], value: last.value };
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
const RG_FLAGS = ["--no-config", "--no-messages", "--binary", "--no-require-git", "--smart-case", "-n"];
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
  const mine = await median(() => call("search_grep", args));
  const raw = await median(() => rawRg([...RG_FLAGS, "-e", pattern, "."]));
  const rawJson = await median(() => rawRg([...RG_FLAGS, "--json", "-e", pattern, "."]));
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

const globMine = await median(() => call("search_glob", { pattern: "*.rs" }));
const globRaw = await median(() =>
  rawRg(["--files", "--no-config", "--no-require-git", "--sortr", "modified", "-g", "*.rs", "."])
);
row([
  "search_glob *.rs (newest first)",
  ms(globMine.ms),
  `rg --files: ${ms(globRaw.ms)}`,
  ratio(globMine.ms, globRaw.ms),
  "",
  tokens(globMine.value),
  "",
]);

async function peerRows() {
  const dc = await startPeer("desktop-commander", { workspace: corpus.root });
  try {
    for (const [label, pattern] of [["selective", "XYZZY_SELECTIVE"], ["100k+", "FIXME"]]) {
      const mine = await median(() => call("search_grep", { pattern }));
      const theirs = await median(async () => {
        const start = textOf(
          await dc.client.callTool({
            name: "start_search",
            arguments: {
              path: corpus.root,
              pattern,
              searchType: "content",
              contextLines: 0,
              ignoreCase: false,
            },
          }),
        );
        const session = start.match(/session: (\S+)/)?.[1];
        let page = "";
        for (let i = 0; session && !/Search completed/.test(start) && i < 6000; i++) {
          page = textOf(
            await dc.client.callTool({
              name: "get_more_search_results",
              arguments: { sessionId: session, offset: 0, length: 100 },
            }),
          );
          if (/Search completed/.test(page)) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return `${start}\n${page}`;
      }, 1);
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
    const mine = await median(() => call("search_glob", { pattern: "*.rs" }));
    const theirs = await median(async () =>
      textOf(
        await fs.client.callTool({
          name: "search_files",
          arguments: { path: corpus.root, pattern: "**/*.rs" },
        }),
      ), 1);
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
  } MB; ripgrep ${rg.version} (${rg.source}); median of ${runs} warm runs`,
  "",
  "| case | ours | baseline | ratio | alt ratio | our tokens | baseline tokens |", // peers: 1 warm + 1 run
  "|---|---|---|---|---|---|---|",
  ...rows,
].join("\n"));
