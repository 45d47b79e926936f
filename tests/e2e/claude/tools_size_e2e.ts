/**
 * What the agent pays on every request under Claude Code: the o200k size of the `tools[]` entries the real
 * Claude Code sends for each of our servers (tool search off: every tool's full definition), beside the
 * servers' own tools/list (tools/tokens.ts), and what tool search on sends instead (the names only).
 * Prints a table (docs/benchmarks.md quotes it). Run with `deno task e2e:claude`.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { encode } from "gpt-tokenizer";
import { REPO_ROOT } from "../../../tools/catalog.ts";
import { type ListedTool, listTokens } from "../../../tools/tokens.ts";
import { calls, type MessagesRequest, runScenario } from "./harness.ts";
import type { WireTool } from "./fake_api.ts";

const SERVERS = ["hello", "shell", "search", "fs", "edit", "notes", "sql", "gateway"];

/** The README's tail behind the gateway: its tools[] is the same four whatever sits behind it. */
const TAIL_CONFIG =
  '{ "mcpServers": { "notes": { "builtin": "notes" }, "sql": { "builtin": "sql" }, "fs": { "builtin": "fs" } } }';

/** o200k tokens of `tools[]` entries exactly as they go over the wire. */
const wireTokens = (tools: WireTool[]) =>
  tools.reduce((sum, tool) => sum + encode(JSON.stringify(tool)).length, 0);

const ofServer = (server: string) => (name: string) => name.startsWith(`mcp__${server}__`);

/** The first request of a run with every server loaded and `toolSearch` as given. */
async function firstRequest(toolSearch: boolean): Promise<MessagesRequest> {
  await using run = await runScenario({
    servers: SERVERS,
    toolSearch,
    files: { ".git/": "", "gateway.config.jsonc": TAIL_CONFIG },
    serverEnv: { MCP_GATEWAY_CONFIG: "gateway.config.jsonc" },
    // One round trip, so the run shows the tools work with all eight servers loaded.
    script: calls(toolSearch, { server: "hello", tool: "hello_echo", input: { text: "size" } }),
  });
  assert.equal(run.exchanges.at(-1)?.result, "size");
  // Count a fixed project path, not the random temp one, should a description name it.
  const sent = JSON.stringify(run.requests[0]);
  return JSON.parse(sent.replaceAll(run.workspace, "/home/user/project"));
}

Deno.test("tools[] Claude Code sends per server, tool search off and on", async () => {
  const off = await firstRequest(false);
  const on = await firstRequest(true);
  const offTools = off.tools ?? [];
  const builtins = offTools.filter((tool) => !tool.name.startsWith("mcp__"));
  // Tool search on: no MCP tool in tools[]; their names are listed in a system message instead.
  assert.ok(!(on.tools ?? []).some((tool) => tool.name.startsWith("mcp__")), "MCP tools sent with search on");
  const listed = JSON.stringify(on.messages).match(/mcp__[\w-]+__\w+/g) ?? [];
  const onBuiltins = on.tools ?? [];
  assert.ok(onBuiltins.some((tool) => tool.name === "ToolSearch"), "no ToolSearch with tool search on");

  const rows = SERVERS.map((server) => {
    const sent = offTools.filter((tool) => ofServer(server)(tool.name));
    const own: ListedTool[] = JSON.parse(Deno.readTextFileSync(join(REPO_ROOT, "mcp", server, "tools.json")));
    assert.equal(sent.length, own.length, `${server}: ${sent.length} tools sent, ${own.length} listed`);
    const names = [...new Set(listed.filter(ofServer(server)))];
    assert.equal(names.length, own.length, `${server}: ${names.length} names listed with tool search on`);
    return [`${server}-mcp`, own.length, listTokens(own), wireTokens(sent), encode(names.join("\n")).length];
  });
  const total = (column: number) => rows.reduce((sum, row) => sum + Number(row[column]), 0);
  const table = [
    "| Claude Code 2.1.332 | tools | tools/list | `tools[]`, tool search off | names, tool search on |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...rows.map((row) => `| ${row.join(" | ")} |`),
    `| all eight | ${total(1)} | ${total(2)} | ${total(3)} | ${total(4)} |`,
    `| Claude Code's own tools, tool search off | ${builtins.length} | — | ${wireTokens(builtins)} | — |`,
    `| Claude Code's own tools, tool search on (ToolSearch added) | ${onBuiltins.length} | — | — | ${
      wireTokens(onBuiltins)
    } |`,
  ].join("\n");
  Deno.stderr.writeSync(new TextEncoder().encode(`${table}\n`));
});
