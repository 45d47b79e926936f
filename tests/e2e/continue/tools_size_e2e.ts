/**
 * What the agent pays on every request: the o200k size of the `tools[]` array the real Continue CLI sends,
 * with its own built-ins and with our servers in their place (the built-ins excluded as the README says).
 * Prints a table (docs/benchmarks.md quotes it). Run with `deno task e2e`.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { encode } from "gpt-tokenizer";
import { bundledPath } from "../../../lib/ripgrep/locate.ts";
import { DONE, runScenario } from "./harness.ts";
import type { WireTool } from "./fake_model.ts";

/** The built-ins our servers replace (README "Switch off the built-ins a server replaces"). */
const REPLACED = ["Bash", "Search", "Read", "List", "Edit", "MultiEdit", "Write"];
const HEAD_REPLACED = ["Bash", "Search", "Edit", "MultiEdit", "Write"];
const exclude = (tools: string[]) => tools.flatMap((tool) => ["--exclude", tool]);

/** o200k tokens of one `tools[]` entry exactly as it goes over the wire. */
function wireTokens(tool: WireTool): number {
  return encode(JSON.stringify(tool)).length;
}

const sum = (tools: WireTool[]) => tools.reduce((total, tool) => total + wireTokens(tool), 0);

/** The `tools[]` of cn's first request with `servers` loaded. */
async function sentTools(servers: string[], args: string[], rgDir: string): Promise<WireTool[]> {
  await using run = await runScenario({
    servers,
    args,
    // cn offers its Search tool only when `rg` is on PATH.
    path: rgDir,
    files: { ".git/": "", "gateway.config.jsonc": TAIL_CONFIG },
    env: { MCP_GATEWAY_CONFIG: "gateway.config.jsonc" },
    script: () => ({ text: DONE }),
  });
  // cn's Bash description names the working directory: count a fixed one, not the random temp path.
  const sent = JSON.stringify(run.requests[0].tools ?? []);
  return JSON.parse(sent.replaceAll(run.workspace, "/home/user/project"));
}

/** The README's tail behind the gateway: its tools[] is the same four whatever sits behind it. */
const TAIL_CONFIG =
  '{ "mcpServers": { "notes": { "builtin": "notes" }, "sql": { "builtin": "sql" }, "fs": { "builtin": "fs" } } }';

Deno.test("tools[] cn sends: built-ins vs our servers in their place", async () => {
  const rgDir = await Deno.makeTempDir({ prefix: "continue-mcp-e2e-rg-" });
  try {
    const rg = await bundledPath();
    assert.ok(rg, "no bundled ripgrep to put on PATH");
    await Deno.symlink(rg, join(rgDir, "rg"));

    // Headless cn hides tools whose policy is "ask" (its file-writing ones); --auto allows them all, as an
    // agent that edits needs. In cn 1.5.47 --auto also overrides every --exclude: Bash stays (checked below).
    const builtins = await sentTools([], ["--auto", "--exclude", "Bash"], rgDir);
    const ours = await sentTools(["shell", "search", "edit", "fs"], exclude(REPLACED), rgDir);
    const head = await sentTools(["shell", "search", "edit", "gateway"], exclude(HEAD_REPLACED), rgDir);

    const names = (tools: WireTool[]) => tools.map((tool) => tool.function.name);
    for (const name of ["Bash", "Search", "Read", "List", "Write"]) {
      assert.ok(names(builtins).includes(name), name);
    }
    for (const name of REPLACED) assert.ok(!names(ours).includes(name), `${name} not excluded`);
    for (const name of ["shell_run", "search_grep", "edit_file", "fs_read"]) {
      assert.ok(names(ours).includes(name));
    }
    assert.ok(names(head).includes("gateway_search") && names(head).includes("Read"));
    assert.ok(names(builtins).includes("Bash"), "cn --auto now honours --exclude: update the README's note");

    const replaced = builtins.filter((tool) => REPLACED.includes(tool.function.name));
    const byServer = (prefix: string, tools: WireTool[]) =>
      tools.filter((tool) => tool.function.name.startsWith(`${prefix}_`));
    const rows = [
      ["cn built-ins (`--auto`)", builtins.length, sum(builtins)],
      [`of which the ones we replace (${names(replaced).join(", ")})`, replaced.length, sum(replaced)],
      ["shell + search + edit + fs, those built-ins excluded", ours.length, sum(ours)],
      ...["shell", "search", "edit", "fs"].map((server) => {
        const tools = byServer(server, ours);
        return [`of which ${server}-mcp`, tools.length, sum(tools)];
      }),
      ["README head: shell + search + edit + gateway (Read, List kept)", head.length, sum(head)],
      [
        "of which gateway-mcp (notes, sql, fs behind it)",
        byServer("gateway", head).length,
        sum(byServer("gateway", head)),
      ],
    ];
    const table = [
      "| cn 1.5.47 `tools[]` | tools | o200k tokens |",
      "| --- | ---: | ---: |",
      ...rows.map(([label, count, tokens]) => `| ${label} | ${count} | ${tokens} |`),
    ].join("\n");
    Deno.stderr.writeSync(new TextEncoder().encode(`${table}\n`));
  } finally {
    await Deno.remove(rgDir, { recursive: true });
  }
});
