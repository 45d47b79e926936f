/**
 * Claude Code beyond one stdio call: the gateway's search → call with tool search off, a server over
 * Streamable HTTP with its bearer token, `claude mcp list` before and after approval, and a refused call
 * caught although Claude Code exits 0. Run with `deno task e2e:claude`.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  approve,
  calls,
  DONE,
  mcpName,
  onlyExchange,
  type Reply,
  runScenario,
  setUpProject,
} from "./harness.ts";

const STDIO = ["edit", "fs", "gateway", "hello", "notes", "search", "shell", "sql"];

Deno.test("claude + gateway, tool search off: gateway_search finds notes_write, gateway_call runs it", async () => {
  const body = `Gateway e2e note ${crypto.randomUUID().slice(0, 8)}`;
  await using run = await runScenario({
    servers: ["gateway"],
    toolSearch: false,
    files: {
      ".git/": "",
      // The README's tail wiring: this project's servers inside the gateway's own process.
      "gateway.config.jsonc":
        '{ "mcpServers": { "notes": { "builtin": "notes" }, "sql": { "builtin": "sql" } } }',
    },
    serverEnv: { MCP_GATEWAY_CONFIG: "gateway.config.jsonc" },
    script: (exchanges, { request }): Reply => {
      if (exchanges.length === 0) {
        // Tool search off: the gateway's tools are in tools[] from the first request, ToolSearch is not.
        const names = request.tools?.map((tool) => tool.name) ?? [];
        assert.ok(names.includes(mcpName("gateway", "gateway_search")), `tools[]: ${names}`);
        assert.ok(!names.includes("ToolSearch"), "ToolSearch offered with ENABLE_TOOL_SEARCH=false");
        return { call: mcpName("gateway", "gateway_search"), input: { query: "write a note" } };
      }
      if (exchanges.length === 1) {
        const found = exchanges[0].result.match(/[\w-]*notes_write\b/)?.[0];
        assert.ok(found, `gateway_search did not list notes_write:\n${exchanges[0].result}`);
        return {
          call: mcpName("gateway", "gateway_call"),
          input: { name: found, arguments: { slug: "via-gateway", body } },
        };
      }
      return { text: DONE };
    },
  });
  assert.deepEqual(run.exchanges.map((e) => e.name), [
    mcpName("gateway", "gateway_search"),
    mcpName("gateway", "gateway_call"),
  ]);
  assert.match(run.exchanges[1].result, /via-gateway/);
  const note = await Deno.readTextFile(join(run.workspace, ".continue-notes", "via-gateway.md"));
  assert.ok(note.includes(body), note);
});

Deno.test("claude + edit over --http with the bearer token: edit_file changes the file on disk", async () => {
  await using run = await runScenario({
    servers: [],
    httpServers: ["edit"],
    toolSearch: true,
    files: { "src/greet.ts": 'export const greeting = "Hello";\n' },
    script: calls(true, {
      server: "edit-http",
      tool: "edit_file",
      input: { path: "src/greet.ts", edits: [{ old_text: '"Hello"', new_text: '"Howdy over HTTP"' }] },
    }),
  });
  onlyExchange(run);
  assert.equal(
    await Deno.readTextFile(join(run.workspace, "src", "greet.ts")),
    'export const greeting = "Howdy over HTTP";\n',
  );
});

Deno.test("claude mcp list: project servers pending until approved, then every server connected", async () => {
  await using project = await setUpProject({ servers: STDIO, httpServers: ["hello"] }, { approve: false });
  const mcpJson = JSON.parse(await Deno.readTextFile(join(project.workspace, ".mcp.json")));
  assert.deepEqual(Object.keys(mcpJson.mcpServers).sort(), STDIO);
  assert.equal(JSON.stringify(mcpJson).includes("Bearer"), false, "the HTTP token went into .mcp.json");

  const before = await project.claude(["mcp", "list"]);
  assert.equal(before.code, 0, before.stderr);
  for (const name of STDIO) assert.match(before.stdout, new RegExp(`^${name}: .*Pending approval`, "m"));

  await approve(project.user, STDIO);
  const after = await project.claude(["mcp", "list"]);
  assert.equal(after.code, 0, after.stderr);
  for (const name of [...STDIO, "hello-http"]) {
    assert.match(after.stdout, new RegExp(`^${name}: .*Connected`, "m"), after.stdout);
  }
  assert.equal(after.stdout.match(/Connected/g)?.length, STDIO.length + 1, after.stdout);
});

Deno.test("harness: a call Claude Code refuses fails the scenario, though claude exits 0", async () => {
  // hello is connected, but --allowedTools names another server: headless Claude Code cannot ask, so it
  // answers the call with a permission error, and exits 0 once the model ends the run.
  await using run = await runScenario({
    servers: ["hello"],
    toolSearch: false,
    allowedTools: ["mcp__fs"],
    script: calls(false, { server: "hello", tool: "hello_echo", input: { text: "refused" } }),
  });
  assert.equal(run.claude.code, 0);
  assert.throws(
    () => onlyExchange(run),
    /the call failed: Claude requested permissions to use mcp__hello__hello_echo/,
  );
});
