import assert from "node:assert/strict";
import { parseArgs, Refusal } from "../../tools/new_server.ts";
import {
  addBuiltin,
  addCompileTask,
  addGatewayEntry,
  hasGatewayEntry,
  nameProblem,
  renderTemplateFile,
  targetPath,
} from "../../tools/scaffold.ts";
import { parseJsonc } from "../../mcp/gateway/jsonc.ts";
import { repoCopy, snapshotTree } from "./_repo_copy.ts";

const decoder = new TextDecoder();

async function run(args: string[], cwd: string, env: Record<string, string> = {}) {
  const output = await new Deno.Command(Deno.execPath(), { args, cwd, env: { NO_COLOR: "1", ...env } })
    .output();
  return { code: output.code, text: decoder.decode(output.stdout) + decoder.decode(output.stderr) };
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

Deno.test("names: [a-z][a-z0-9-]*, short, no dangling dash; tool names use _ for -", () => {
  for (const good of ["loc", "repo-map", "s3", "a"]) assert.equal(nameProblem(good), undefined, good);
  for (const bad of ["", "Loc", "1loc", "loc_count", "repo map", "../x", "repo-", "a--b", "x".repeat(25)]) {
    assert.ok(nameProblem(bad), bad);
  }
  assert.equal(
    renderTemplateFile("tools.ts", 'name: "template_describe", server: "template"', {
      name: "repo-map",
      summary: "s",
      tail: false,
    }),
    'name: "repo_map_describe", server: "repo-map"',
  );
});

Deno.test("renderTemplateFile: the summary is replaced once, JSON-quoted in server.json, never renamed", () => {
  const spec = { name: "loc", summary: 'Counts "template" lines.', tail: true };
  const json = renderTemplateFile(
    "server.json",
    '{\n  "summary": "The template every new server starts from.",\n  "smoke": { "tool": "template_x" }\n}\n',
    spec,
  );
  assert.deepEqual(JSON.parse(json), {
    summary: 'Counts "template" lines.',
    tail: true,
    smoke: { tool: "loc_x" },
  });
  const test = renderTemplateFile(
    "tests/server_test.ts",
    'import { a } from "../../../lib/a.ts";\nimport { b } from "../server.ts";\nnew URL("../", import.meta.url);',
    spec,
  );
  assert.equal(
    test,
    'import { a } from "../../../lib/a.ts";\nimport { b } from "../../../mcp/loc/server.ts";\nnew URL("../../../mcp/loc/", import.meta.url);',
  );
  assert.equal(targetPath("tests/server_test.ts", "loc"), "tests/mcp/loc/server_test.ts");
  assert.equal(targetPath("tools.ts", "loc"), "mcp/loc/tools.ts");
});

Deno.test("addBuiltin quotes a dashed name; addGatewayEntry adds a builtin entry the config parser accepts", () => {
  const builtins = 'const B = {\n  fs: () => import("../fs/boot.ts"),\n};\n';
  assert.equal(
    addBuiltin(builtins, "repo-map"),
    'const B = {\n  fs: () => import("../fs/boot.ts"),\n  "repo-map": () => import("../repo-map/boot.ts"),\n};\n',
  );
  const config = '// c\n{\n  "mcpServers": {\n    // first\n    "fs": { "builtin": "fs" }\n  }\n}\n';
  const added = addGatewayEntry(config, "loc");
  assert.deepEqual(parseJsonc(added), { mcpServers: { loc: { builtin: "loc" }, fs: { builtin: "fs" } } });
  assert.ok(hasGatewayEntry(added, "loc"));
  assert.ok(!hasGatewayEntry(config, "loc"));
  assert.throws(() => addGatewayEntry("{}", "loc"), /no "mcpServers"/);
});

Deno.test("parseArgs refuses unknown options, extra names and multi-line descriptions", () => {
  assert.deepEqual(parseArgs(["loc", "--tail", "--describe", "Counts lines."]), {
    name: "loc",
    summary: "Counts lines.",
    tail: true,
  });
  assert.deepEqual(parseArgs(["loc"]), { name: "loc", summary: "The loc server.", tail: false });
  for (
    const args of [[], ["loc", "--summary", "x"], ["loc", "extra"], ["loc", "--describe"], [
      "loc",
      "--describe",
      "a\nb",
    ]]
  ) {
    assert.throws(() => parseArgs(args), Refusal, JSON.stringify(args));
  }
});

Deno.test("deno task new: a hot server gets a Continue block and no gateway entry; refusals change nothing", async () => {
  await using copy = await repoCopy();
  const before = await snapshotTree(copy.path);
  for (
    const [args, why] of [
      [["hello"], /"hello" is taken: mcp\/hello exists/],
      [["Bad_Name"], /not a server name/],
      [["notes-2", "--bogus"], /Unknown option "--bogus"/],
      [["github"], /already has an entry by that name/],
    ] as const
  ) {
    const refused = await run(["task", "new", ...args], copy.path);
    assert.equal(refused.code, 2, refused.text);
    assert.match(refused.text, /refused \(nothing changed\)/);
    assert.match(refused.text, why);
  }
  assert.deepEqual(await snapshotTree(copy.path), before, "a refusal must not change a file");

  const created = await run(["task", "new", "repo-map", "--describe", "Maps a repository."], copy.path);
  assert.equal(created.code, 0, created.text);
  assert.match(created.text, /4 passed \| 0 failed/);
  assert.match(created.text, /wired into Continue: \.continue\/mcpServers\/repo-map\.yaml/);
  const block = await Deno.readTextFile(copy.join(".continue/mcpServers/repo-map.yaml"));
  assert.match(block, /^name: repo-map-mcp\n/);
  assert.match(block, /command: "repo-map-mcp"/);
  const config = await Deno.readTextFile(copy.join("mcp/gateway/gateway.config.example.jsonc"));
  assert.ok(!hasGatewayEntry(config, "repo-map"), "never both: a hot server is not in the gateway config");
  assert.match(
    await Deno.readTextFile(copy.join("mcp/gateway/builtins.ts")),
    /\n {2}"repo-map": \(\) => import\("\.\.\/repo-map\/boot\.ts"\),\n/,
    "the gateway can still host it in process",
  );
  const denoJson = JSON.parse(await Deno.readTextFile(copy.join("deno.json")));
  assert.equal(
    denoJson.tasks["compile:repo-map"],
    "deno compile --no-prompt --allow-read --allow-env --output dist/repo-map-mcp mcp/repo-map/main.ts",
  );
  const changed = [...(await snapshotTree(copy.path)).keys()].filter((path) => !before.has(path)).sort();
  assert.deepEqual(changed, [
    ".continue/mcpServers/repo-map.yaml",
    "mcp/repo-map/boot.ts",
    "mcp/repo-map/main.ts",
    "mcp/repo-map/server.json",
    "mcp/repo-map/server.ts",
    "mcp/repo-map/tools.json",
    "mcp/repo-map/tools.ts",
    "tests/mcp/repo-map/server_test.ts",
  ]);
  const lint = await run(
    ["lint", "mcp/repo-map", "tests/mcp/repo-map", "mcp/gateway/builtins.ts"],
    copy.path,
  );
  assert.equal(lint.code, 0, lint.text);
  const fmt = await run(
    ["fmt", "--check", "mcp/repo-map", "tests/mcp/repo-map", "deno.json", "mcp/gateway"],
    copy.path,
  );
  assert.equal(fmt.code, 0, fmt.text);
  const again = await run(["task", "new", "repo-map"], copy.path);
  assert.equal(again.code, 2, again.text);
  assert.match(again.text, /"repo-map" is taken/);
});
