/** Shared parts of the fs benchmarks: the generated corpus, our server over stdio, timing and RSS. */
import { join } from "node:path";
import { encode } from "gpt-tokenizer";
import type { Client } from "../../lib/mcp/sdk_client.ts";
import { type Started, startOurs } from "./ours.ts";
import type { CallToolResult } from "../../lib/mcp/sdk.ts";
import { REPO_ROOT } from "../../tools/catalog.ts";

/** Where the generated files live (gitignored). */
export const CORPUS = join(REPO_ROOT, "bench", ".corpus", "fs");

/** Size of the big log. */
export const BIG_BYTES = 500 * 1024 * 1024;

/** A log line of ~100 bytes for line `n`. */
function logLine(n: number): string {
  const level = ["INFO", "WARN", "DEBUG", "ERROR"][n % 4];
  return `2026-11-30T12:${String(n % 60).padStart(2, "0")}:00Z ${level} worker-${
    n % 16
  } request ${n} handled in ${n % 997}ms path=/api/v1/items/${n % 10007}\n`;
}

/**
 * Creates (once) `big.log` (500 MB), `src.py` (5,000 lines) and `tree/` (a monorepo-like tree). No `.ts`
 * or `.js` names: `deno check bench/` must not pick the corpus up.
 */
export async function ensureCorpus(): Promise<{ big: string; src: string; tree: string; bigLines: number }> {
  await Deno.mkdir(CORPUS, { recursive: true });
  const big = join(CORPUS, "big.log");
  const linesFile = join(CORPUS, "big.lines");
  let bigLines = 0;
  try {
    bigLines = Number(await Deno.readTextFile(linesFile));
    if ((await Deno.stat(big)).size < BIG_BYTES) bigLines = 0;
  } catch {
    bigLines = 0;
  }
  if (!bigLines) {
    using file = await Deno.open(big, { write: true, create: true, truncate: true });
    const encoder = new TextEncoder();
    let written = 0;
    let n = 0;
    while (written < BIG_BYTES) {
      let chunk = "";
      for (let i = 0; i < 10_000; i++) chunk += logLine(++n);
      const bytes = encoder.encode(chunk);
      await file.write(bytes);
      written += bytes.length;
    }
    bigLines = n;
    await Deno.writeTextFile(linesFile, String(n));
  }
  const src = join(CORPUS, "src.py");
  const srcText = Array.from(
    { length: 5000 },
    (_, i) => `    result_${i} = handler_${i % 97}(request, timeout=${i % 30})  # step ${i}\n`,
  ).join("");
  await Deno.writeTextFile(src, srcText);
  const tree = join(CORPUS, "tree");
  try {
    await Deno.stat(join(tree, ".done"));
  } catch {
    await makeTree(tree);
  }
  return { big, src, tree, bigLines };
}

async function makeTree(tree: string): Promise<void> {
  await Deno.remove(tree, { recursive: true }).catch(() => {});
  const write = async (path: string, text: string) => {
    await Deno.mkdir(join(tree, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(tree, path), text);
  };
  await write(".git/HEAD", "ref: refs/heads/main\n");
  await write(".gitignore", "dist/\nnode_modules/\n");
  await write("README.md", "# monorepo\n");
  for (let p = 0; p < 40; p++) {
    const pkg = `packages/pkg${String(p).padStart(2, "0")}`;
    await write(`${pkg}/package.json`, "{}\n");
    for (let m = 0; m < 10; m++) {
      for (let f = 0; f < 20; f++) await write(`${pkg}/src/mod${m}/file${f}.py`, `x = ${f}\n`);
    }
  }
  for (let d = 0; d < 2000; d++) await write(`dist/chunk${d}.txt`, "x\n");
  for (let n = 0; n < 200; n++) {
    for (let f = 0; f < 10; f++) await write(`node_modules/dep${n}/lib/f${f}.txt`, "x\n");
  }
  await write(".done", "");
}

/** Our fs server, spawned like Continue spawns it, with `workspace` as MCP_WORKSPACE. */
export function startFs(workspace: string): Promise<Started> {
  return startOurs("fs", workspace);
}

/** Peak resident memory of a process in MB (Linux `VmHWM`), or NaN elsewhere. */
export async function peakRssMb(pid: number | null): Promise<number> {
  if (pid === null) return NaN;
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    return Number(status.match(/VmHWM:\s+(\d+) kB/)?.[1]) / 1024;
  } catch {
    return NaN;
  }
}

/** A tool call's wall time (ms) and text size in o200k tokens. */
export async function timedCall(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ ms: number; tokens: number; text: string; error: boolean }> {
  const started = performance.now();
  const result = await client.callTool({ name, arguments: args }, undefined, {
    timeout: 120_000,
  }) as CallToolResult;
  const ms = performance.now() - started;
  const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
  return { ms, tokens: encode(text).length, text, error: result.isError === true };
}

/** The median of `runs` measurements of `fn`. */
export async function median(runs: number, fn: () => Promise<number>): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < runs; i++) values.push(await fn());
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)];
}

/** `12.3` with one decimal, `1,234` without. */
export function num(value: number): string {
  if (Number.isNaN(value)) return "n/a";
  return value >= 100 ? Math.round(value).toLocaleString("en-US") : value.toFixed(1);
}

const encoder = new TextEncoder();

/** Prints a line of the report on stdout (benchmarks are scripts; the no-console rule guards servers). */
export function print(line = ""): void {
  Deno.stdout.writeSync(encoder.encode(`${line}\n`));
}
