/**
 * What the notes index saves: o200k tokens of `notes_list` for 50 generated notes against reading all of
 * them in full (`notes_read` of every slug), the first page for 100 notes, and the tools/list cost. Token counts are
 * deterministic, so one run is enough: `deno run -A bench/notes.ts [--show]`.
 * @module
 */
import { encode } from "gpt-tokenizer";
import { type ClientCapabilities } from "../lib/mcp/sdk.ts";
import { Client, InMemoryTransport } from "../lib/mcp/sdk_client.ts";
import type { CallToolResult } from "../lib/mcp/sdk.ts";
import { Workspace } from "../lib/workspace/workspace.ts";
import { createServer } from "../mcp/notes/server.ts";
import { listTokens } from "../tools/tokens.ts";
import { sampleNotes } from "../tests/mcp/notes/sample_notes.ts";
import { loadServerSdk } from "../lib/mcp/server.ts";

const repo = await Deno.makeTempDir({ prefix: "notes-bench-" });
try {
  await Deno.mkdir(`${repo}/.git`);
  // One note every seven hours: fifty notes spread over fifteen days, as a real notes folder would be.
  let clock = Date.UTC(2026, 0, 1);
  const now = () => new Date(clock += 7 * 3_600_000);
  const handle = createServer({ workspace: new Workspace({ cwd: repo }), now });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "bench", version: "0" }, { capabilities: {} as ClientCapabilities });
  await loadServerSdk();
  await handle.server.connect(serverSide);
  await client.connect(clientSide);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args }) as CallToolResult;
    const first = result.content[0];
    if (result.isError || first?.type !== "text") throw new Error(`${name} failed`);
    return first.text;
  };
  const slugs: string[] = [];
  for (const note of sampleNotes()) {
    slugs.push(/"([a-z0-9-]+)"/.exec(await call("notes_write", { ...note }))![1]);
  }
  const list = await call("notes_list", {});
  const query = await call("notes_list", { query: "windows gotchas" });
  const fullTexts: string[] = [];
  for (let i = 0; i < slugs.length; i += 20) {
    fullTexts.push(await call("notes_read", { slug: slugs.slice(i, i + 20) }));
  }
  const full = fullTexts.join("\n\n");
  // Fifty more notes (ten more areas): a full page, where summaries give way to every note's line.
  for (const note of sampleNotes(100).slice(50)) await call("notes_write", { ...note });
  const list100 = await call("notes_list", {});
  const shown100 = list100.split("\n").filter((line) => /^[a-z0-9-]+( — | \(|$)/.test(line)).length;
  const { tools } = await client.listTools();
  const rows: [string, string][] = [
    ["`notes_list` (50 notes, no query)", `${encode(list).length} tokens, ${list.length} chars`],
    ['`notes_list` query "windows gotchas"', `${encode(query).length} tokens`],
    ["`notes_read` of all 50 notes", `${encode(full).length} tokens, ${full.length} chars`],
    ["index / full text", `${((encode(list).length / encode(full).length) * 100).toFixed(1)} %`],
    ["`notes_list` (100 notes, no query)", `${encode(list100).length} tokens, ${shown100} notes shown`],
    ["tools/list (4 tools)", `${listTokens(tools)} tokens`],
  ];
  // `--show` prints the index itself after the table.
  const table = [
    "| measure | value |",
    "|---|---|",
    ...rows.map(([measure, value]) => `| ${measure} | ${value} |`),
  ];
  if (Deno.args.includes("--show")) table.push("", list);
  await Deno.stdout.write(new TextEncoder().encode(`${table.join("\n")}\n`));
  await client.close();
  await handle.close();
} finally {
  await Deno.remove(repo, { recursive: true });
}
