/**
 * What the proof test's "agent" writes for the spec "a tool that counts lines of code per language in a
 * folder", after `deno task new loc --tail`: plain text, written into a repository copy through shell_run.
 * @module
 */

/** The spec the agent is given, and its answers to the skill's questions. */
export const LOC_SPEC = {
  name: "loc",
  describe: "Counts lines of code per language in a folder.",
  answers: {
    inputs: "a folder, relative to the workspace (default: the workspace)",
    output: "text: a table of language, files, lines, most lines first",
    sideEffects: "none: reads files; ripgrep does the counting",
    placement: "tail: used now and then, so behind the gateway",
  },
};

/** mcp/loc/count.ts: the logic, no SDK, no zod; ripgrep (a native binary) reads and counts the lines. */
export const COUNT_TS =
  `/** Lines per language in a folder: ripgrep counts every file's lines (ignore-aware); we group them. */
import { ToolError } from "../../lib/mcp/errors.ts";
import { runBounded } from "../../lib/process/run_bounded.ts";

const LANGUAGES: Record<string, string> = {
  go: "Go",
  js: "JavaScript",
  json: "JSON",
  md: "Markdown",
  py: "Python",
  rs: "Rust",
  sh: "Shell",
  sql: "SQL",
  ts: "TypeScript",
  tsx: "TypeScript",
  yaml: "YAML",
  yml: "YAML",
};

/** One row of the answer. */
export interface LanguageCount {
  language: string;
  files: number;
  lines: number;
}

/** The language of a file, from its extension. */
export function languageOf(path: string): string {
  const extension = /\\.([^./\\\\]+)$/.exec(path)?.[1]?.toLowerCase();
  if (!extension) return "(none)";
  return LANGUAGES[extension] ?? "." + extension;
}

/** Groups ripgrep's \`--count --null\` output (path NUL count, one file a line) by language, most lines first. */
export function groupCounts(output: string): LanguageCount[] {
  const byLanguage = new Map<string, LanguageCount>();
  for (const line of output.split("\\n")) {
    const [path, count] = line.split("\\0");
    if (count === undefined) continue;
    const language = languageOf(path);
    const row = byLanguage.get(language) ?? { language, files: 0, lines: 0 };
    row.files++;
    row.lines += Number(count);
    byLanguage.set(language, row);
  }
  return [...byLanguage.values()].sort((a, b) => b.lines - a.lines || a.language.localeCompare(b.language));
}

/** Counts the lines of every file under \`folder\` with ripgrep at \`rg\`. */
export async function countLines(rg: string, folder: string, signal?: AbortSignal): Promise<LanguageCount[]> {
  const result = await runBounded(rg, ["--no-config", "--count", "--null", "--with-filename", "^", "."], {
    cwd: folder,
    timeoutMs: 60_000,
    signal,
  });
  if (result.stopped) throw new ToolError("timeout", "Cannot count lines: ripgrep took over 60 s");
  // ripgrep: 0 found lines, 1 found none (an empty folder), 2 an error.
  if (result.code > 1) {
    throw new ToolError("internal", "Cannot count lines: ripgrep failed: " + new TextDecoder().decode(result.stderr));
  }
  return groupCounts(new TextDecoder().decode(result.stdout));
}

/** The table the model reads: at most \`maxRows\` languages, saying how many it cut. */
export function renderCounts(rows: LanguageCount[], maxRows = 30): string {
  if (!rows.length) return "no files";
  const shown = rows.slice(0, maxRows);
  const lines = shown.map((row) => [row.language, String(row.files), String(row.lines)]);
  const total = rows.reduce((sum, row) => ({ files: sum.files + row.files, lines: sum.lines + row.lines }), {
    files: 0,
    lines: 0,
  });
  const table = [["language", "files", "lines"], ...lines, ["total", String(total.files), String(total.lines)]];
  const width = table[0].map((_, column) => Math.max(...table.map((row) => row[column].length)));
  const text = table.map((row) =>
    row.map((cell, column) => column ? cell.padStart(width[column]) : cell.padEnd(width[column])).join("  ")
  ).join("\\n");
  return rows.length > maxRows ? text + "\\n[" + (rows.length - maxRows) + " more languages cut]" : text;
}
`;

/** mcp/loc/tools.ts: the one flexible tool, replacing the template's example. */
export const TOOLS_TS = `/** The loc server's tool table. */
import { z } from "zod";
import { defineTool, type ToolDefinition } from "../../lib/mcp/tool.ts";
import { ToolError } from "../../lib/mcp/errors.ts";
import { requireRipgrep } from "../../lib/ripgrep/locate.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { countLines, renderCounts } from "./count.ts";

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The tools, closed over their dependencies. */
export function createTools(deps: { workspace: Workspace }): ToolDefinition[] {
  return [
    defineTool({
      name: "loc_count",
      description: "Count lines of code per language in a folder (gitignore-aware). A table, most lines first.",
      input: { path: z.string().optional().describe("Folder, relative to the workspace; default the workspace") },
      annotations: READ_ONLY,
      run: async ({ path }, { signal }) => {
        const folder = await deps.workspace.resolveInside(path ?? ".");
        if (!(await Deno.stat(folder)).isDirectory) {
          throw new ToolError("invalid_argument", 'Cannot count lines in "' + path + '": not a folder');
        }
        const rg = await requireRipgrep();
        return renderCounts(await countLines(rg.path, folder, signal));
      },
    }),
  ];
}
`;

/** mcp/loc/server.json: the summary kept, tail kept, the smoke call and permissions updated. */
export const SERVER_JSON = `{
  "summary": "Counts lines of code per language in a folder.",
  "instructions": "Counts lines of code per language in a folder.",
  "tail": true,
  "permissions": ["--allow-read", "--allow-env", "--allow-run"],
  "smoke": { "tool": "loc_count", "arguments": { "path": "mcp/loc" } }
}
`;

/** tests/mcp/loc/server_test.ts: golden tests over a fixed folder, one error case, snapshot, stdio. */
export const SERVER_TEST_TS = `import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { spawnServerDir } from "../../_support/stdio.ts";
import { assertSnapshot } from "../../_support/snapshot.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { createServer } from "../../../mcp/loc/server.ts";
import { groupCounts, renderCounts } from "../../../mcp/loc/count.ts";

const FIXTURE = {
  "src/a.ts": "const a = 1;\\nconst b = 2;\\n\\nexport { a, b };\\n",
  "src/b.ts": "export const c = 3;\\n",
  "scripts/run.py": "print('hi')\\nprint('bye')\\n",
  "README.md": "# Title\\n",
  "Makefile": "all:\\n\\ttrue\\n",
};

Deno.test("loc_count: lines and files per language, most lines first (golden)", async () => {
  await using ws = await tempWorkspace(FIXTURE);
  await using c = await connect(createServer({ workspace: new Workspace({ cwd: ws.path }) }));
  assert.equal(
    await c.text("loc_count", {}),
    [
      "language    files  lines",
      "TypeScript      2      5",
      "(none)          1      2",
      "Python          1      2",
      "Markdown        1      1",
      "total           5     10",
    ].join("\\n"),
  );
  assert.equal(await c.text("loc_count", { path: "scripts" }), "language  files  lines\\nPython        1      2\\ntotal         1      2");
});

Deno.test("loc_count refuses a file and a path outside the workspace", async () => {
  await using ws = await tempWorkspace(FIXTURE);
  await using c = await connect(createServer({ workspace: new Workspace({ cwd: ws.path }) }));
  const file = await c.call("loc_count", { path: "README.md" });
  assert.equal(file.isError, true);
  assert.equal(textOf(file), 'Error [invalid_argument]: Cannot count lines in "README.md": not a folder');
  const outside = await c.call("loc_count", { path: "../.." });
  assert.match(textOf(outside), /^Error \\[outside_workspace\\]/);
});

Deno.test("renderCounts caps the table and says what it cut", () => {
  const rows = groupCounts("a.x1\\u00003\\nb.x2\\u00002\\nc.x3\\u00001\\n");
  assert.equal(renderCounts(rows, 2).split("\\n").at(-1), "[1 more languages cut]");
  assert.equal(renderCounts([]), "no files");
});

Deno.test("loc: tools/list matches the snapshot", async () => {
  await using c = await connect(createServer({ workspace: new Workspace({ cwd: Deno.cwd() }) }));
  await assertSnapshot(new URL("../../../mcp/loc/tools.json", import.meta.url), (await c.client.listTools()).tools);
});

Deno.test("loc: the stdio entrypoint answers a real client", async () => {
  await using ws = await tempWorkspace(FIXTURE);
  await using c = await spawnServerDir(new URL("../../../mcp/loc/", import.meta.url), {
    cwd: ws.path,
    env: { MCP_WORKSPACE: ws.path },
  });
  const result = await c.client.callTool({ name: "loc_count", arguments: { path: "src" } });
  assert.match(JSON.stringify(result), /TypeScript {6}2 {6}5/);
});
`;

/** A folder to count through the gateway once the server is wired. */
export const GATEWAY_FIXTURE: Record<string, string> = {
  "counted/a.ts": "one\ntwo\nthree\n",
  "counted/b.sql": "select 1;\n",
};
