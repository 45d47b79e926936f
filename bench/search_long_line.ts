/**
 * Side script (not a timed benchmark): peak memory of search-mcp when one file is a single huge line.
 * Writes a temp workspace with `big.txt` (one line of N MB with a match near its start and its end) and
 * `small.txt` (one match), asks search_grep in every mode over stdio, and prints each answer's summary with
 * the server's peak RSS (VmHWM, Linux only).
 * Usage: deno run -A bench/search_long_line.ts [megabytes=100]; 520 reproduces the 512 MB failure.
 * @module
 */
import { Client, StdioClientTransport } from "../lib/mcp/sdk_client.ts";
import { listServers, runArgs } from "../tools/catalog.ts";

const megabytes = Number(Deno.args[0] ?? 100);
// deno-lint-ignore no-console
const say = (message: string) => console.log(message);
const root = await Deno.makeTempDir({ prefix: "continue-mcp-long-line-" });
try {
  const file = await Deno.open(`${root}/big.txt`, { write: true, create: true });
  const block = new TextEncoder().encode("x".repeat(1024 * 1024));
  await file.write(new TextEncoder().encode("needle "));
  for (let i = 0; i < megabytes; i++) await file.write(block);
  await file.write(new TextEncoder().encode(" needle\n"));
  file.close();
  await Deno.writeTextFile(`${root}/small.txt`, "a needle here\n");
  const server = listServers().find((s) => s.name === "search")!;
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: runArgs(server),
    cwd: root,
    env: { ...Deno.env.toObject(), MCP_WORKSPACE: root, SEARCH_MCP_TIMEOUT_S: "900" },
    stderr: "pipe",
  });
  const client = new Client({ name: "long-line", version: "0.0.0" });
  await client.connect(transport);
  const peakRss = async () => {
    const status = await Deno.readTextFile(`/proc/${transport.pid}/status`);
    return status.match(/VmHWM:\s+(\d+) kB/)?.[1] ?? "?";
  };
  say(
    `one line of ${megabytes} MB; server peak RSS after start: ${
      Math.round(Number(await peakRss()) / 1024)
    } MB`,
  );
  const cases: Record<string, unknown>[] = [
    { pattern: "needle" },
    { pattern: "needle", mode: "files" },
    { pattern: "needle", mode: "count" },
    { pattern: "needle", context: 2 },
    { pattern: "needle", multiline: true },
    { pattern: "needle x+", multiline: true },
  ];
  for (const args of cases) {
    // ripgrep alone needs ~10 s per 100 MB to print such a line as JSON.
    const result = await client.callTool({ name: "search_grep", arguments: args }, undefined, {
      timeout: 900_000,
    }) as {
      content: Array<{ text?: string }>;
      isError?: boolean;
    };
    const text = result.content[0]?.text ?? "";
    const summary = text.split("\n").filter(Boolean).at(-1);
    const rss = Math.round(Number(await peakRss()) / 1024);
    say(
      `${JSON.stringify(args)}: ${
        result.isError ? text.slice(0, 200) : summary
      } (${text.length} chars; peak RSS ${rss} MB)`,
    );
  }
  await client.close();
} finally {
  await Deno.remove(root, { recursive: true });
}
