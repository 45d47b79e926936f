/**
 * Checks that hold for every server under `mcp/` (new servers are covered automatically): the token
 * budget of tools/list, naming, the README table, the Continue block examples and the compile tasks.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { listServers, REPO_ROOT } from "../tools/catalog.ts";
import { type Inspection, inspectServer } from "../tools/inspect.ts";
import { listTokens, toolTokens } from "../tools/tokens.ts";
import { normalizeTable, renderToolTable, tableOf } from "../tools/readme.ts";
import { blockYaml } from "../tools/blocks.ts";
import { toolPrefix } from "../tools/scaffold.ts";
import denoJson from "../deno.json" with { type: "json" };
import type { CallToolResult } from "../lib/mcp/sdk.ts";
import { spawnStdio } from "./_support/stdio.ts";
import { tempWorkspace } from "./_support/workspace.ts";

const SERVER_BUDGET = 1_000;
const ALL_BUDGET = 2_500;
const servers = listServers();

let inspections: Promise<Inspection[]> | undefined;
function inspectAll(): Promise<Inspection[]> {
  inspections ??= Promise.all(servers.map((server) => inspectServer(server, { cwd: REPO_ROOT })));
  return inspections;
}

Deno.test("every server starts over stdio and passes its smoke call", async () => {
  for (const seen of await inspectAll()) {
    assert.ok(seen.ok, `${seen.name}: ${seen.error ?? seen.smoke?.text}`);
  }
});

Deno.test("token budget: descriptions ≤ 200, parameters ≤ 80, servers ≤ 1,000, all ≤ 2,500", async () => {
  let total = 0;
  for (const seen of await inspectAll()) {
    for (const tool of seen.tools) {
      const prefix = toolPrefix(seen.name);
      assert.match(tool.name, new RegExp(`^${prefix}_[a-z0-9_]+$`), "tool names are <server>_<verb>");
      assert.ok(tool.name.length <= 40, `${tool.name} is longer than 40 characters`);
      assert.ok((tool.description ?? "").length <= 200, `${tool.name}: description over 200 characters`);
      for (const [path, description] of parameterDescriptions(tool.inputSchema)) {
        assert.ok(description.length <= 80, `${tool.name}.${path}: parameter description over 80 characters`);
      }
      assert.ok(!JSON.stringify(tool.inputSchema).includes("$schema"), `${tool.name} carries $schema`);
      assert.ok(toolTokens(tool) > 0);
    }
    const tokens = listTokens(seen.tools);
    assert.ok(
      tokens <= SERVER_BUDGET,
      `${seen.name}: tools/list costs ${tokens} tokens (budget ${SERVER_BUDGET})`,
    );
    // The gateway's tools, and those of the tail servers behind it, are not on the model's list at rest.
    const tail = seen.name === "gateway" || servers.find((server) => server.name === seen.name)?.tail;
    if (!tail) total += tokens;
  }
  assert.ok(total <= ALL_BUDGET, `all servers cost ${total} tokens (budget ${ALL_BUDGET})`);
});

Deno.test("README's table of servers and tools is generated from the code", async () => {
  const readme = await Deno.readTextFile(join(REPO_ROOT, "README.md"));
  assert.equal(
    tableOf(readme),
    normalizeTable(await renderToolTable()),
    "README.md is stale: run `deno task sync`",
  );
});

Deno.test("the Continue block examples in .continue/mcpServers match every direct server, and only those", async () => {
  for (const server of servers) {
    const file = join(REPO_ROOT, ".continue", "mcpServers", `${server.name}.yaml`);
    const yaml = await Deno.readTextFile(file).catch(() => "");
    if (server.tail) {
      assert.equal(yaml, "", `${file}: ${server.name} is behind the gateway (tail), so it has no block`);
      continue;
    }
    assert.equal(yaml, blockYaml(server), `${file} is stale or missing: run \`deno task sync\``);
    assert.match(yaml, /^version: /m, "Continue's CLI ignores a block without version");
  }
});

Deno.test("deno.json has a compile:<name> task per server with exactly its permissions and embedded files", () => {
  const tasks = denoJson.tasks as Record<string, string>;
  for (const server of servers) {
    const task = tasks[`compile:${server.name}`];
    assert.ok(task, `deno.json lacks compile:${server.name}`);
    const flags = task.split(/\s+/).filter((part) => part.startsWith("--allow-"));
    assert.deepEqual(
      flags,
      server.permissions,
      `compile:${server.name} flags differ from mcp/${server.name}/server.json`,
    );
    const includes = [...task.matchAll(/--include (\S+)/g)].map((match) => match[1]);
    assert.deepEqual(
      includes,
      server.include ?? [],
      `compile:${server.name} must embed the files server.json lists`,
    );
    assert.match(
      task,
      new RegExp(`--no-prompt .*--output dist/${server.name}-mcp mcp/${server.name}/main\\.ts$`),
    );
  }
});

function parameterDescriptions(schema: unknown, prefix = ""): [string, string][] {
  const found: [string, string][] = [];
  const properties = (schema as { properties?: Record<string, unknown> }).properties ?? {};
  for (const [name, property] of Object.entries(properties)) {
    const path = prefix + name;
    const description = (property as { description?: string }).description;
    if (description !== undefined) found.push([path, description]);
    const items = (property as { items?: unknown }).items;
    if (items) found.push(...parameterDescriptions(items, `${path}[].`));
    found.push(...parameterDescriptions(property, `${path}.`));
  }
  return found;
}

Deno.test("every tool of every server refuses an unknown argument before doing anything", async () => {
  await using workspace = await tempWorkspace({ "a.txt": "one\n" });
  for (const server of servers) {
    await using connection = await spawnStdio(server.name, { cwd: workspace.path });
    const { tools } = await connection.client.listTools();
    for (const tool of tools) {
      assert.equal(tool.inputSchema.additionalProperties, false, `${tool.name}: input schema is open`);
      assert.doesNotMatch(JSON.stringify(tool), /"type":\[/, `${tool.name}: a type list (use anyOf)`);
      const result = await connection.client.callTool({
        name: tool.name,
        arguments: { path: "made.txt", content: "x", dry_runn: true },
      }) as CallToolResult;
      const text = result.content.map((block) => block.type === "text" ? block.text : "").join("");
      assert.equal(result.isError, true, `${tool.name} accepted an unknown argument: ${text}`);
      assert.match(text, /^Error \[invalid_argument\]: .*"dry_runn": unknown argument/, tool.name);
    }
  }
  assert.deepEqual(await Array.fromAsync(Deno.readDir(workspace.path), (entry) => entry.name), ["a.txt"]);
});
