/**
 * Every server under the real Continue CLI, wired by the repository's own block file: one tool call each,
 * with an effect the test can check (output only the tool could have produced, or a change on disk).
 * Run with `deno task e2e`.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { calls, onlyExchange, runScenario } from "./harness.ts";

const marker = () => `e2e-${crypto.randomUUID().slice(0, 8)}`;

Deno.test("cn + hello.yaml: hello_echo returns the text the model sent", async () => {
  const text = marker();
  await using run = await runScenario({
    servers: ["hello"],
    script: calls({ call: "hello_echo", arguments: { text } }),
  });
  assert.match(onlyExchange(run).result, new RegExp(text));
  // cn's start-up version check went for api.continue.dev and the guard refused it: the seal was on.
  assert.ok(run.cn.refused.includes("api.continue.dev"), `refused: ${run.cn.refused.join(", ")}`);
});

Deno.test("cn + shell.yaml: shell_run runs the command in the workspace", async () => {
  await using run = await runScenario({
    servers: ["shell"],
    files: { "here.txt": "shell-e2e-file\n" },
    // The shell does the arithmetic and reads the file: the result cannot be an echo of the arguments.
    script: calls({ call: "shell_run", arguments: { command: "echo sum=$((6*7)); cat here.txt" } }),
  });
  const { result } = onlyExchange(run);
  assert.match(result, /^exit 0/);
  assert.match(result, /sum=42/);
  assert.match(result, /shell-e2e-file/);
});

Deno.test("cn + search.yaml: search_grep finds the one matching line", async () => {
  await using run = await runScenario({
    servers: ["search"],
    files: { "src/hay.ts": "const a = 1;\nconst needle_73 = 2;\n", "src/other.ts": "nothing here\n" },
    script: calls({ call: "search_grep", arguments: { pattern: "needle_[0-9]+" } }),
  });
  const { result } = onlyExchange(run);
  assert.match(result, /src\/hay\.ts/);
  assert.match(result, /needle_73/);
  assert.doesNotMatch(result, /other\.ts/);
});

Deno.test("cn + edit.yaml: edit_file changes the file on disk", async () => {
  await using run = await runScenario({
    servers: ["edit"],
    files: { "src/greet.ts": 'export const greeting = "Hello";\nexport const n = 1;\n' },
    script: calls({
      call: "edit_file",
      arguments: { path: "src/greet.ts", edits: [{ old_text: '"Hello"', new_text: '"Howdy"' }] },
    }),
  });
  onlyExchange(run);
  const after = await Deno.readTextFile(join(run.workspace, "src", "greet.ts"));
  assert.equal(after, 'export const greeting = "Howdy";\nexport const n = 1;\n');
});

Deno.test("cn + fs.yaml: fs_read returns the file's numbered lines", async () => {
  const line = marker();
  await using run = await runScenario({
    servers: ["fs"],
    files: { "docs/seed.md": `# Seed\n\n${line}\n` },
    script: calls({ call: "fs_read", arguments: { path: "docs/seed.md" } }),
  });
  const { result } = onlyExchange(run);
  assert.match(result, new RegExp(`3.*${line}`));
});

Deno.test("cn + notes.yaml: notes_write puts the note in .continue-notes/", async () => {
  const body = `We chose Deno for the servers (${marker()}).`;
  await using run = await runScenario({
    servers: ["notes"],
    files: { ".git/": "" },
    script: calls({
      call: "notes_write",
      arguments: { slug: "runtime-choice", title: "Runtime choice", body, tags: ["decision"] },
    }),
  });
  onlyExchange(run);
  const note = await Deno.readTextFile(join(run.workspace, ".continue-notes", "runtime-choice.md"));
  assert.match(note, new RegExp(body.replace(/[().]/g, "\\$&")));
});

Deno.test("cn + sql.yaml: sql_format returns the house style", async () => {
  await using run = await runScenario({
    servers: ["sql"],
    script: calls({ call: "sql_format", arguments: { sql: "SELECT A, B FROM T WHERE X = 1" } }),
  });
  const { result } = onlyExchange(run);
  assert.match(result, /select/);
  assert.match(result, /\n\s*, b/);
  assert.doesNotMatch(result, /SELECT/);
});
