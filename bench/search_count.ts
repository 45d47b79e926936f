/**
 * search_grep `mode: count` on files with many matches per line, end to end over stdio, against `rg -c`:
 * a 70 MB file of 700,000 lines with 99 matches each, and a 1,000,000-line CSV counting `,`.
 * Usage: deno run -A bench/search_count.ts [runs=3]
 * @module
 */
import { Client, StdioClientTransport } from "../lib/mcp/sdk_client.ts";
import { requireRipgrep } from "../lib/ripgrep/locate.ts";
import { listServers, runArgs } from "../tools/catalog.ts";

const runs = Number(Deno.args[0] ?? 3);
// deno-lint-ignore no-console
const say = (message: string) => console.log(message);
const rg = await requireRipgrep();
const root = await Deno.makeTempDir({ prefix: "continue-mcp-count-" });

async function writeRepeated(path: string, line: string, times: number): Promise<void> {
  await using file = await Deno.open(path, { write: true, create: true });
  const block = new TextEncoder().encode(line.repeat(10_000));
  for (let i = 0; i < times / 10_000; i++) await file.write(block);
}

async function median(fn: () => Promise<unknown>): Promise<{ ms: number; value: unknown }> {
  const times: number[] = [];
  let value: unknown;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    value = await fn();
    times.push(performance.now() - started);
  }
  return { ms: times.sort((a, b) => a - b)[Math.floor(times.length / 2)], value };
}

try {
  // 99 matches of `x` on each ~100-byte line.
  await Deno.mkdir(`${root}/many`);
  await writeRepeated(`${root}/many/big.txt`, "x ".repeat(49) + "x\n", 700_000);
  await Deno.mkdir(`${root}/csv`);
  await writeRepeated(`${root}/csv/data.csv`, "id,name,city,zip,amount,date,note\n", 1_000_000);
  const server = listServers().find((s) => s.name === "search")!;
  const client = new Client({ name: "count", version: "0.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: runArgs(server),
      cwd: root,
      env: { ...Deno.env.toObject(), MCP_WORKSPACE: root },
      stderr: "ignore",
    }),
  );
  say("| case | search_grep count | rg -c | answer |");
  say("|---|---|---|---|");
  for (
    const [label, path, pattern] of [["70 MB, 99 matches a line", "many", "x"], ["1M-line CSV", "csv", ","]]
  ) {
    const ours = await median(async () => {
      const result = await client.callTool(
        { name: "search_grep", arguments: { pattern, path, mode: "count" } },
        undefined,
        { timeout: 120_000 },
      ) as { content: Array<{ text?: string }> };
      return (result.content[0]?.text ?? "").split("\n").filter(Boolean).slice(1).join(" / ");
    });
    const raw = await median(() =>
      new Deno.Command(rg.path, { args: ["-c", "--", pattern, path], cwd: root, stdout: "piped" }).output()
    );
    say(`| ${label} | ${Math.round(ours.ms)} ms | ${Math.round(raw.ms)} ms | ${ours.value} |`);
  }
  await client.close();
} finally {
  await Deno.remove(root, { recursive: true });
}
