import assert from "node:assert/strict";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { REPO_ROOT } from "../../tools/catalog.ts";
import { addCompileTask } from "../../tools/new_server.ts";
import { tempWorkspace } from "../_support/workspace.ts";

async function run(args: string[], cwd: string, env: Record<string, string> = {}) {
  const output = await new Deno.Command(Deno.execPath(), { args, cwd, env: { NO_COLOR: "1", ...env } })
    .output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  return { success: output.success, text };
}

Deno.test("addCompileTask inserts a compile task after the last one, keeping JSON valid", () => {
  const json = '{\n  "tasks": {\n    "compile:a": "x",\n    "compile:b": "y",\n    "z": "w"\n  }\n}';
  const out = JSON.parse(addCompileTask(json, "new", ["--allow-read"]));
  assert.equal(
    out.tasks["compile:new"],
    "deno compile --no-prompt --allow-read --output dist/new-mcp mcp/new/main.ts",
  );
  assert.deepEqual(Object.keys(out.tasks), ["compile:a", "compile:b", "compile:new", "z"]);
  const last = JSON.parse(addCompileTask('{\n  "tasks": {\n    "compile:a": "x"\n  }\n}', "n", []));
  assert.deepEqual(Object.keys(last.tasks), ["compile:a", "compile:n"]);
});

Deno.test("deno task new scaffolds a server whose own tests, lint and fmt pass", async () => {
  await using copy = await tempWorkspace();
  for (
    const entry of [
      "deno.json",
      "deno.lock",
      "lib",
      "tools",
      "tests/_support",
      "mcp/hello",
      "mcp/gateway/builtins.ts",
    ]
  ) {
    await Deno.mkdir(join(copy.path, entry, ".."), { recursive: true });
    await cp(join(REPO_ROOT, entry), join(copy.path, entry), { recursive: true });
  }
  const created = await run(["run", "-A", "tools/new_server.ts", "demo", "--summary", "A demo."], copy.path);
  assert.ok(created.success, created.text);
  const flags = ["test", "--no-prompt", "-A", "tests/mcp/demo/"];
  const first = await run(flags, copy.path, { UPDATE_SNAPSHOTS: "1" });
  assert.ok(first.success, first.text);
  const again = await run(flags, copy.path);
  assert.ok(again.success, again.text);
  assert.match(again.text, /4 passed \| 0 failed/);
  const lint = await run(["lint", "mcp/demo", "tests/mcp/demo"], copy.path);
  assert.ok(lint.success, lint.text);
  const fmt = await run(
    ["fmt", "--check", "mcp/demo", "tests/mcp/demo", "deno.json", "mcp/gateway/builtins.ts"],
    copy.path,
  );
  assert.ok(fmt.success, fmt.text);
  assert.match(
    await Deno.readTextFile(copy.join("mcp/gateway/builtins.ts")),
    /\n {2}sql: \(\) => import\("\.\.\/sql\/boot\.ts"\),\n {2}demo: \(\) => import\("\.\.\/demo\/boot\.ts"\),\n/,
    "the gateway can host the new server in process",
  );
  const denoJson = JSON.parse(await Deno.readTextFile(copy.join("deno.json")));
  assert.match(
    denoJson.tasks["compile:demo"],
    /--allow-read --allow-env --output dist\/demo-mcp mcp\/demo\/main\.ts$/,
  );
});
