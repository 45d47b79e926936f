/**
 * The new-mcp-tool skill is faithful: every command, path, flag, tool and name it puts in a code span
 * exists and means what the skill says. A span no check recognises fails the test, so a new one must come
 * with its check. (The proof test runs the skill's commands for real.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { encode } from "gpt-tokenizer";
import denoJson from "../../deno.json" with { type: "json" };
import { REPO_ROOT } from "../../tools/catalog.ts";
import { parseArgs, planServer, Refusal } from "../../tools/new_server.ts";
import { nameProblem, SERVER_NAME, toolPrefix } from "../../tools/scaffold.ts";
import { parseSkill, ruleFromSkill } from "../../tools/skills.ts";
import { ERROR_CODES } from "../../lib/mcp/errors.ts";
import { SEPARATOR } from "../../mcp/gateway/names.ts";
import { parseJsonc } from "../../mcp/gateway/jsonc.ts";
import * as workspaceSupport from "../_support/workspace.ts";

const SKILL_PATH = join(REPO_ROOT, "skills", "new-mcp-tool", "SKILL.md");
const NAME = "skill-probe";
const tasks = denoJson.tasks as Record<string, string>;

async function read(path: string): Promise<string> {
  return await Deno.readTextFile(join(REPO_ROOT, path));
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(join(REPO_ROOT, path)).then(() => true, () => false);
}

Deno.test("every code span of the new-mcp-tool skill names something that exists and behaves as described", async () => {
  const skill = await Deno.readTextFile(SKILL_PATH);
  const hot = await planServer(REPO_ROOT, parseArgs([NAME]));
  const tail = await planServer(REPO_ROOT, parseArgs([NAME, "--tail"]));
  const planned = [...new Set([...hot.keys(), ...tail.keys()])];
  const fill = (text: string) => text.replaceAll("<name>", NAME);
  /** A path the skill names: in the repository, or written by the generator (a file or a folder of files). */
  const isPath = async (path: string) =>
    await exists(fill(path)) || planned.some((file) => file === fill(path) || file.startsWith(fill(path)));
  const toolNames = async (server: string) =>
    JSON.parse(await read(`mcp/${server}/tools.json`)).map((tool: { name: string }) => tool.name);
  const manifestKeys = Object.keys(JSON.parse(await read("templates/server/server.json")));

  const checks: [RegExp, (span: string, match: RegExpMatchArray) => Promise<void> | void][] = [
    [/^deno task (\S+)(.*)$/, (span, [, task, rest]) => {
      assert.ok(tasks[task], `${span}: deno.json has no task "${task}"`);
      if (task === "new") {
        const args = [...rest.matchAll(/"[^"]*"|\S+/g)].map(([arg]) => fill(arg).replace(/^"(.*)"$/, "$1"));
        assert.deepEqual(parseArgs(args), { name: NAME, summary: "<one line>", tail: false });
      }
    }],
    [/^UPDATE_SNAPSHOTS=1 (deno test .*)$/, async (_span, [, command]) => {
      assert.match(await read("tests/_support/snapshot.ts"), /Deno\.env\.get\("UPDATE_SNAPSHOTS"\) === "1"/);
      for (const path of command.split(" ").slice(3)) assert.ok(await isPath(path), path);
    }],
    [/^deno (test -A|fmt|lint) (.*)$/, async (_span, [, , paths]) => {
      for (const path of paths.split(" ")) assert.ok(await isPath(path), path);
    }],
    [/^--tail$/, () => assert.equal(parseArgs(["x", "--tail"]).tail, true)],
    [/^--allow-run$/, async () => assert.match(await read("mcp/shell/server.json"), /"--allow-run"/)],
    [
      /^(\.continue|mcp|tests|lib|deno\.json)[\w./<>-]*$/,
      async (span) => assert.ok(await isPath(span), span),
    ],
    [/^(shell_run|gateway_call)$/, async (span) => {
      assert.ok((await toolNames(span.split("_")[0])).includes(span), `${span} is not a tool`);
    }],
    [/^tempWorkspace$/, () => assert.equal(typeof workspaceSupport.tempWorkspace, "function")],
    [/^throw new ToolError\("(\w+)", "Cannot .*"\)$/, (_span, [, code]) => {
      assert.ok((ERROR_CODES as readonly string[]).includes(code), code);
    }],
    [/^(smoke|permissions)$/, (span) => assert.ok(manifestKeys.includes(span), span)],
    [/^compile:<name>$/, () => assert.ok(JSON.parse(hot.get("deno.json")!).tasks[`compile:${NAME}`])],
    [/^\[a-z\]\[a-z0-9-\]\*$/, (span) => assert.equal(SERVER_NAME.source, `^${span}$`)],
    [/^repo-map$/, (span) => assert.equal(nameProblem(span), undefined)],
    [/^<name>$|^-$|^_$|^<name>_<verb>$/, () => assert.equal(toolPrefix("repo-map"), "repo_map")],
    [
      /^<name>-mcp$/,
      () => assert.match(hot.get(`.continue/mcpServers/${NAME}.yaml`)!, /command: "skill-probe-mcp"/),
    ],
    [/^\{ "builtin": "<name>" \}$/, () => {
      const config = parseJsonc(tail.get("mcp/gateway/gateway.config.example.jsonc")!) as {
        mcpServers: Record<string, unknown>;
      };
      assert.deepEqual(config.mcpServers[NAME], { builtin: NAME });
    }],
    [/^\{ "name": "<name>__<tool>" \}$/, async () => {
      assert.equal(SEPARATOR, "__");
      const snapshot = JSON.parse(await read("mcp/gateway/tools.json"));
      const call = snapshot.find((tool: { name: string }) => tool.name === "gateway_call");
      assert.deepEqual(call.inputSchema.required, ["name"]);
    }],
  ];

  const spans = [...parseSkill(skill).body.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
  assert.ok(spans.length > 20);
  for (const span of spans) {
    const check = checks.find(([pattern]) => pattern.test(span));
    assert.ok(check, `SKILL.md names \`${span}\`, which no check covers: add one`);
    await check[1](span, span.match(check[0])!);
  }
});

Deno.test("the skill's claims hold: limits, refusals, never both wirings", async () => {
  const skill = await Deno.readTextFile(SKILL_PATH);
  const servers = await read("tests/servers_test.ts");
  assert.match(skill, /description ≤ 200 characters, each parameter ≤ 80/);
  assert.match(servers, /description\.length <= 80/);
  assert.match(servers, /\.length <= 200, `\$\{tool\.name\}: description over 200/);
  assert.match(skill, /refuses a\s+taken or malformed name and changes nothing/);
  await assert.rejects(planServer(REPO_ROOT, parseArgs(["hello"])), Refusal);
  assert.throws(() => parseArgs(["Repo_Map"]), Refusal);
  const hot = await planServer(REPO_ROOT, parseArgs([NAME]));
  const tail = await planServer(REPO_ROOT, parseArgs([NAME, "--tail"]));
  assert.ok(
    hot.has(`.continue/mcpServers/${NAME}.yaml`) && !hot.has("mcp/gateway/gateway.config.example.jsonc"),
  );
  assert.ok(
    tail.has("mcp/gateway/gateway.config.example.jsonc") && !tail.has(`.continue/mcpServers/${NAME}.yaml`),
  );
});

Deno.test("the skill is short, and shipped as a Continue rule generated from it", async () => {
  const skill = await Deno.readTextFile(SKILL_PATH);
  const { name, description, body } = parseSkill(skill);
  assert.equal(name, "new-mcp-tool");
  assert.ok(description.length <= 200, "the description is what the agent decides on");
  const tokens = encode(body).length;
  assert.ok(tokens <= 900, `SKILL.md costs ${tokens} tokens when read into a context window`);
  assert.equal(
    await read("continue/rules/new-mcp-tool.md"),
    ruleFromSkill(skill),
    "continue/rules/new-mcp-tool.md is stale: run `deno task sync`",
  );
  // `deno task install` copies every continue/rules/*.md into the workspace's .continue/rules/.
  assert.match(await read("tools/install.ts"), /copyRules\(join\(REPO_ROOT, "continue", "rules"\)/);
});
