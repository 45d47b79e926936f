/**
 * `deno task new <name> [--summary "..."]`: scaffolds a server that already passes the gate — entry,
 * server, one tool, server.json, tests (in-memory, stdio, snapshot), the compile task, the gateway's builtin
 * entry and the Continue block. Then: `deno task test:update && deno task sync`.
 * @module
 */
import { join } from "node:path";
import { REPO_ROOT } from "./catalog.ts";

/** What the generator writes, relative to the repository root. */
export function scaffold(name: string, summary: string): Record<string, string> {
  const title = `${name}-mcp`;
  return {
    [`mcp/${name}/main.ts`]: `/**
 * ${title}: ${summary}
 * Permissions: --allow-read (workspace roots), --allow-env (MCP_WORKSPACE, MCP_ALLOW_DIRS).
 * @module
 */
import { serve } from "../../lib/mcp/serve.ts";
import { boot } from "./boot.ts";

await serve(boot);
`,
    [`mcp/${name}/boot.ts`]:
      `/** Builds the ${name} server from env: for its stdio entry and the gateway's in-process hosting. */
import type { McpServerHandle } from "../../lib/mcp/server.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import { createServer } from "./server.ts";

/** The ${name} server, configured from env exactly as its stdio entry runs it. */
export function boot(): McpServerHandle {
  return createServer({ workspace: Workspace.fromEnv() });
}
`,
    [`mcp/${name}/server.ts`]: `/** The ${name} server: ${summary} */
import { createMcpServer, type McpServerHandle } from "../../lib/mcp/server.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { createTools } from "./tools.ts";

/** What the ${name} server needs. */
export interface ServerOptions {
  workspace: Workspace;
}

/** Builds the ${name} server; no I/O until it is connected. */
export function createServer(options: ServerOptions): McpServerHandle {
  return createMcpServer({
    name: "${name}",
    instructions: ${JSON.stringify(summary)},
    tools: createTools(options),
    workspace: options.workspace,
  });
}
`,
    [`mcp/${name}/tools.ts`]: `/** The ${name} server's tool table. */
import { z } from "zod";
import { defineTool, type ToolDefinition } from "../../lib/mcp/tool.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";

/** The tools, closed over their dependencies. */
export function createTools(deps: { workspace: Workspace }): ToolDefinition[] {
  return [
    defineTool({
      name: "${name}_describe",
      description: "Describe a workspace path: its real location, shown relative to the workspace.",
      input: { path: z.string().describe("Path, relative to the workspace") },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: async ({ path }) => deps.workspace.display(await deps.workspace.resolveInside(path)),
    }),
  ];
}
`,
    [`mcp/${name}/server.json`]: JSON.stringify(
      {
        summary,
        permissions: ["--allow-read", "--allow-env"],
        smoke: { tool: `${name}_describe`, arguments: { path: "." } },
      },
      null,
      2,
    ) + "\n",
    [`tests/mcp/${name}/server_test.ts`]: `import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { assertSnapshot } from "../../_support/snapshot.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { createServer } from "../../../mcp/${name}/server.ts";

Deno.test("${name}_describe shows a path relative to the workspace", async () => {
  await using ws = await tempWorkspace({ "src/a.ts": "a" });
  await using c = await connect(createServer({ workspace: new Workspace({ cwd: ws.path }) }));
  assert.equal(await c.text("${name}_describe", { path: "src/../src/a.ts" }), "src/a.ts");
});

Deno.test("${name}_describe refuses a path outside the workspace", async () => {
  await using ws = await tempWorkspace();
  await using c = await connect(createServer({ workspace: new Workspace({ cwd: ws.path }) }));
  const result = await c.call("${name}_describe", { path: "../.." });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /^Error \\[outside_workspace\\]/);
});

Deno.test("${name}: tools/list matches the snapshot", async () => {
  await using c = await connect(createServer({ workspace: new Workspace({ cwd: Deno.cwd() }) }));
  await assertSnapshot(new URL("./tools.snapshot.json", import.meta.url), (await c.client.listTools()).tools);
});

Deno.test("${name}: the stdio entrypoint answers a real client", async () => {
  await using c = await spawnStdio("${name}");
  const { tools } = await c.client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), ["${name}_describe"]);
});
`,
  };
}

/** deno.json text with a `compile:<name>` task added after the last one. */
export function addCompileTask(denoJson: string, name: string, permissions: string[]): string {
  const task = `    "compile:${name}": "deno compile --no-prompt ${
    permissions.join(" ")
  } --output dist/${name}-mcp mcp/${name}/main.ts",`;
  const lines = denoJson.split("\n");
  const last = lines.findLastIndex((line) => line.trim().startsWith('"compile:'));
  if (last < 0) throw new Error('deno.json has no "compile:<name>" task to add after');
  const withComma = lines[last].endsWith(",") ? lines[last] : `${lines[last]},`;
  const added = last === lines.length - 1 || lines[last].endsWith(",") ? task : task.replace(/,$/, "");
  lines.splice(last, 1, withComma, added);
  return lines.join("\n");
}

/** builtins.ts text with the new server added to the gateway's in-process table, after the last entry. */
export function addBuiltin(builtins: string, name: string): string {
  const lines = builtins.split("\n");
  const last = lines.findLastIndex((line) =>
    /^ {2}[a-z0-9]+: \(\) => import\("\.\.\/[a-z0-9]+\/boot\.ts"\),$/.test(line)
  );
  if (last < 0) throw new Error("mcp/gateway/builtins.ts has no builtin entry to add after");
  lines.splice(last + 1, 0, `  ${name}: () => import("../${name}/boot.ts"),`);
  return lines.join("\n");
}

if (import.meta.main) {
  const [name, ...rest] = Deno.args;
  const summaryAt = rest.indexOf("--summary");
  const summary = summaryAt >= 0 ? rest[summaryAt + 1] : `The ${name} server.`;
  const rootAt = rest.indexOf("--root");
  const root = rootAt >= 0 ? rest[rootAt + 1] : REPO_ROOT;
  if (!name || !/^[a-z][a-z0-9]{1,19}$/.test(name)) {
    throw new Error("Usage: deno task new <name> [--summary text]; name: lowercase letters and digits, 2-20");
  }
  try {
    await Deno.stat(join(root, "mcp", name));
    throw new Error(`mcp/${name} already exists`);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  for (const [relative, content] of Object.entries(scaffold(name, summary))) {
    await Deno.mkdir(join(root, relative, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, relative), content, { createNew: true });
  }
  const denoJsonPath = join(root, "deno.json");
  const permissions = JSON.parse(scaffold(name, summary)[`mcp/${name}/server.json`]).permissions;
  await Deno.writeTextFile(
    denoJsonPath,
    addCompileTask(await Deno.readTextFile(denoJsonPath), name, permissions),
  );
  // The gateway can host every server of this project in its own process (`{ "builtin": "<name>" }`).
  const builtinsPath = join(root, "mcp", "gateway", "builtins.ts");
  await Deno.writeTextFile(builtinsPath, addBuiltin(await Deno.readTextFile(builtinsPath), name));
  Deno.stdout.writeSync(new TextEncoder().encode(
    `created mcp/${name}/ and tests/mcp/${name}/; next: deno task test:update && deno task sync && deno task ok\n`,
  ));
}
