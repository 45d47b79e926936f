/**
 * Every stdio server under the real Claude Code, added with `claude mcp add --scope project` and approved,
 * with tool search on (its default): the fake model loads the tool with ToolSearch `select:`, then calls
 * it once; the call has an effect the test can check (output only the tool could have produced, or a change
 * on disk). Run with `deno task e2e:claude`.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { calls, onlyExchange, runScenario } from "./harness.ts";

const marker = () => `e2e-${crypto.randomUUID().slice(0, 8)}`;

Deno.test("claude + hello: hello_echo returns the text the model sent", async () => {
  const text = marker();
  await using run = await runScenario({
    servers: ["hello"],
    toolSearch: true,
    script: calls(true, { server: "hello", tool: "hello_echo", input: { text } }),
  });
  assert.equal(onlyExchange(run).result, text);
});

Deno.test("claude + shell: shell_run runs the command in the workspace", async () => {
  await using run = await runScenario({
    servers: ["shell"],
    toolSearch: true,
    files: { "here.txt": "shell-e2e-file\n" },
    // The shell does the arithmetic and reads the file: the result cannot be an echo of the arguments.
    script: calls(true, {
      server: "shell",
      tool: "shell_run",
      input: { command: "echo sum=$((6*7)); cat here.txt" },
    }),
  });
  const { result } = onlyExchange(run);
  assert.match(result, /^exit 0/);
  assert.match(result, /sum=42/);
  assert.match(result, /shell-e2e-file/);
  // The job ran in the bubblewrap sandbox (the default), under Claude Code and strace -f alike.
  assert.match(result, /\[sandbox on: writes only in the workspace/);
});

Deno.test("claude + search: search_grep finds the one matching line", async () => {
  await using run = await runScenario({
    servers: ["search"],
    toolSearch: true,
    files: { "src/hay.ts": "const a = 1;\nconst needle_73 = 2;\n", "src/other.ts": "nothing here\n" },
    script: calls(true, { server: "search", tool: "search_grep", input: { pattern: "needle_[0-9]+" } }),
  });
  const { result } = onlyExchange(run);
  assert.match(result, /src\/hay\.ts/);
  assert.match(result, /needle_73/);
  assert.doesNotMatch(result, /other\.ts/);
});

Deno.test("claude + fs: fs_read returns the file's numbered lines", async () => {
  const line = marker();
  await using run = await runScenario({
    servers: ["fs"],
    toolSearch: true,
    files: { "docs/seed.md": `# Seed\n\n${line}\n` },
    script: calls(true, { server: "fs", tool: "fs_read", input: { path: "docs/seed.md" } }),
  });
  assert.match(onlyExchange(run).result, new RegExp(`3.*${line}`));
});

Deno.test("claude + edit: edit_file changes the file on disk", async () => {
  await using run = await runScenario({
    servers: ["edit"],
    toolSearch: true,
    files: { "src/greet.ts": 'export const greeting = "Hello";\nexport const n = 1;\n' },
    script: calls(true, {
      server: "edit",
      tool: "edit_file",
      input: { path: "src/greet.ts", edits: [{ old_text: '"Hello"', new_text: '"Howdy"' }] },
    }),
  });
  onlyExchange(run);
  const after = await Deno.readTextFile(join(run.workspace, "src", "greet.ts"));
  assert.equal(after, 'export const greeting = "Howdy";\nexport const n = 1;\n');
});

Deno.test("claude + notes: notes_write puts the note in .continue-notes/", async () => {
  const body = `We chose Deno for the servers (${marker()}).`;
  await using run = await runScenario({
    servers: ["notes"],
    toolSearch: true,
    files: { ".git/": "" },
    script: calls(true, {
      server: "notes",
      tool: "notes_write",
      input: { slug: "runtime-choice", title: "Runtime choice", body, tags: ["decision"] },
    }),
  });
  onlyExchange(run);
  const note = await Deno.readTextFile(join(run.workspace, ".continue-notes", "runtime-choice.md"));
  assert.ok(note.includes(body), note);
});

Deno.test("claude + sql: sql_format returns the house style", async () => {
  await using run = await runScenario({
    servers: ["sql"],
    toolSearch: true,
    script: calls(true, {
      server: "sql",
      tool: "sql_format",
      input: { sql: "SELECT A, B FROM T WHERE X = 1" },
    }),
  });
  const { result } = onlyExchange(run);
  assert.match(result, /select/);
  assert.match(result, /\n\s*, b/);
  assert.doesNotMatch(result, /SELECT/);
});
