/**
 * fs_read on a 500 MB log against `head`/`tail`: wall time and peak RSS, each fs_read case in a fresh server.
 * Run: `deno run -A bench/fs_read.ts` (generates bench/.corpus/fs/ on first run; Linux for RSS numbers).
 * @module
 */
import { basename } from "node:path";
import { ensureCorpus, median, num, peakRssMb, print, startFs, timedCall } from "./_support/fs.ts";

const RUNS = 5;
const { big, bigLines } = await ensureCorpus();
const workspace = big.slice(0, big.length - basename(big).length - 1);

interface Row {
  name: string;
  ms: number;
  rss: number;
  baseline: string;
  baseMs: number;
  baseRss: number;
}

/** Runs `args` against a fresh server: the first call alone (cold) and the median of warm repeats. */
async function fsCase(args: Record<string, unknown>): Promise<{ cold: number; warm: number; rss: number }> {
  const fs = await startFs(workspace);
  try {
    const first = await timedCall(fs.client, "fs_read", args);
    if (first.error) throw new Error(first.text);
    const warm = await median(RUNS, async () => (await timedCall(fs.client, "fs_read", args)).ms);
    return { cold: first.ms, warm, rss: await peakRssMb(fs.pid) };
  } finally {
    await fs.close();
  }
}

/** A coreutils command's wall time (median) and peak RSS (GNU time's %M). */
async function shellCase(args: string[]): Promise<{ ms: number; rss: number }> {
  let rss = NaN;
  const ms = await median(RUNS, async () => {
    const started = performance.now();
    const out = await new Deno.Command("/usr/bin/time", {
      args: ["-f", "%M", ...args],
      stdout: "null",
      stderr: "piped",
    }).output();
    const elapsed = performance.now() - started;
    rss = Number(new TextDecoder().decode(out.stderr).trim().split("\n").at(-1)) / 1024;
    return elapsed;
  });
  return { ms, rss };
}

const idle = await (async () => {
  const fs = await startFs(workspace);
  const rss = await peakRssMb(fs.pid);
  await fs.close();
  return rss;
})();

const head = await fsCase({ path: "big.log", offset: 1, limit: 2000 });
const tail = await fsCase({ path: "big.log", offset: -2000 });
const nearEnd = await fsCase({ path: "big.log", offset: bigLines - 1999, limit: 2000 });
const headShell = await shellCase(["head", "-n", "2000", big]);
const tailShell = await shellCase(["tail", "-n", "2000", big]);

const rows: Row[] = [
  {
    name: "lines 1-2000",
    ms: head.warm,
    rss: head.rss,
    baseline: "head -n 2000",
    baseMs: headShell.ms,
    baseRss: headShell.rss,
  },
  {
    name: "last 2000 (offset=-2000), first call: counts all lines",
    ms: tail.cold,
    rss: tail.rss,
    baseline: "tail -n 2000",
    baseMs: tailShell.ms,
    baseRss: tailShell.rss,
  },
  {
    name: "last 2000 (offset=-2000), repeat: line index warm",
    ms: tail.warm,
    rss: tail.rss,
    baseline: "tail -n 2000",
    baseMs: tailShell.ms,
    baseRss: tailShell.rss,
  },
  {
    name: `lines ${bigLines - 1999}-${bigLines} (explicit offset), first call`,
    ms: nearEnd.cold,
    rss: nearEnd.rss,
    baseline: "tail -n 2000",
    baseMs: tailShell.ms,
    baseRss: tailShell.rss,
  },
];

print(
  `500 MB log, ${bigLines.toLocaleString("en-US")} lines; fs-mcp idle peak RSS ${
    num(idle)
  } MB; median of ${RUNS} unless "first call"\n`,
);
print(
  "| fs_read case | fs_read ms | fs-mcp peak RSS MB | baseline | baseline ms | baseline peak RSS MB | time ratio |",
);
print("|---|---:|---:|---|---:|---:|---:|");
for (const row of rows) {
  print(
    `| ${row.name} | ${num(row.ms)} | ${num(row.rss)} | \`${row.baseline}\` | ${num(row.baseMs)} | ${
      num(row.baseRss)
    } | ${(row.ms / row.baseMs).toFixed(1)}x |`,
  );
}
