/**
 * The proof of the tool factory: a scripted agent follows skills/new-mcp-tool/SKILL.md step by step for
 * "a tool that counts lines of code per language in a folder", doing everything through this project's own
 * shell server over stdio, in a throwaway copy of the repository. The commands it runs are the ones the
 * skill names, read out of SKILL.md, with only `<name>` and `<one line>` filled in.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "../../tools/catalog.ts";
import { isWindows } from "../../lib/platform/mod.ts";
import type { CallToolResult } from "../../lib/mcp/sdk.ts";
import { spawnServerDir, spawnStdio, type StdioConnection } from "../_support/stdio.ts";
import { seed } from "../_support/workspace.ts";
import { waitFor } from "../_support/poll.ts";
import { repoCopy } from "./_repo_copy.ts";
import { COUNT_TS, GATEWAY_FIXTURE, LOC_SPEC, SERVER_JSON, SERVER_TEST_TS, TOOLS_TS } from "./_loc_tool.ts";

const SKILL = join(REPO_ROOT, "skills", "new-mcp-tool", "SKILL.md");

/** The shell commands SKILL.md names, in order: its code spans that start with `deno` (or an env prefix). */
export function skillCommands(skill: string): string[] {
  return [...skill.matchAll(/`([^`]+)`/g)].map((match) => match[1])
    .filter((span) => /^([A-Z_]+=\S+ )*deno /.test(span));
}

/** A skill command with its placeholders filled in for `name`. */
function fill(command: string, name: string, oneLine: string): string {
  return command.replaceAll('"<one line>"', JSON.stringify(oneLine)).replaceAll("<name>", name);
}

function textOf(result: CallToolResult): string {
  return result.content.map((block) => block.type === "text" ? block.text : "").join("");
}

/**
 * Runs `command` with shell_run and returns its output; fails the test unless it exits 0. A command still
 * running after shell_run's longest wait is followed with shell_output, as an agent would.
 */
async function shellRun(shell: StdioConnection, command: string): Promise<string> {
  const call = async (name: string, args: Record<string, unknown>) =>
    textOf(
      await shell.client.callTool({ name, arguments: args }, undefined, {
        timeout: 120_000,
      }) as CallToolResult,
    );
  let text = await call("shell_run", { command, wait_s: 50, timeout_s: 300 });
  const running = /^job (\d+) running/.exec(text);
  if (running) {
    const jobId = Number(running[1]);
    const deadline = performance.now() + 300_000;
    while (!/\bexit \d+ after/.test(text) && performance.now() < deadline) {
      text = await call("shell_output", { job_id: jobId, wait_s: 50 });
    }
    text = `${/\bexit \d+ after[^\n]*/.exec(text)?.[0]}\n${await call("shell_output", {
      job_id: jobId,
      since: 0,
    })}`;
  }
  assert.match(text, /^(job \d+ )?exit 0 after/, `shell_run ${command.split("\n")[0]}\n${text}`);
  return text;
}

/** What an agent does to write a file with nothing but a shell: a quoted heredoc. */
function writeFileCommand(path: string, text: string): string {
  assert.ok(!text.includes("\nLOC_EOF\n"));
  return `mkdir -p "$(dirname ${path})" && cat > ${path} <<'LOC_EOF'\n${text}LOC_EOF`;
}

Deno.test({
  name: "proof: an agent following the new-mcp-tool skill builds, tests and wires a loc tool via shell_run",
  // The agent writes files with a POSIX heredoc; the generator itself is covered on every OS elsewhere.
  ignore: isWindows,
  async fn() {
    const { name, describe } = LOC_SPEC;
    const commands = skillCommands(await Deno.readTextFile(SKILL)).map((command) =>
      fill(command, name, describe)
    );
    const step = (pattern: RegExp) => {
      const found = commands.find((command) => pattern.test(command));
      assert.ok(found, `the skill names no command matching ${pattern}`);
      return found;
    };
    await using copy = await repoCopy();
    await using shell = await spawnStdio("shell", { cwd: copy.path, env: { MCP_WORKSPACE: copy.path } });

    // 1. The questions are answered by the spec (LOC_SPEC.answers): text output, no side effects, tail.
    assert.equal(LOC_SPEC.answers.placement.split(":")[0], "tail");
    // 2. Generate, adding --tail as the skill says for a tail tool.
    const generated = await shellRun(shell, `${step(/^deno task new /)} --tail`);
    assert.match(generated, /4 passed \| 0 failed/);
    assert.match(generated, /wired behind the gateway/);
    // 3. Write the tool, its logic module, its manifest, and the matching compile flags.
    await shellRun(shell, writeFileCommand(`mcp/${name}/count.ts`, COUNT_TS));
    await shellRun(shell, writeFileCommand(`mcp/${name}/tools.ts`, TOOLS_TS));
    await shellRun(shell, writeFileCommand(`mcp/${name}/server.json`, SERVER_JSON));
    await shellRun(
      shell,
      `perl -pi -e 's/("compile:${name}": "deno compile --no-prompt --allow-read --allow-env) /$1 --allow-run /' deno.json`,
    );
    // 4. Golden tests, then the skill's test, fmt and lint commands, each exiting 0.
    await shellRun(shell, writeFileCommand(`tests/mcp/${name}/server_test.ts`, SERVER_TEST_TS));
    await shellRun(shell, step(/^UPDATE_SNAPSHOTS=1 deno test /));
    const tested = await shellRun(shell, step(/^deno test /));
    assert.match(tested, /5 passed \| 0 failed/);
    await shellRun(shell, step(/^deno fmt /));
    await shellRun(shell, step(/^deno lint /));
    // 5. Wire and check: doctor lists it as ok; sync puts it in the README table.
    // Both start every server: run side by side, as an agent may, to halve the wait.
    const [doctor] = await Promise.all([
      shellRun(shell, `${step(/^deno task doctor$/)} || true`),
      shellRun(shell, step(/^deno task sync$/)),
    ]);
    assert.match(doctor, new RegExp(`\\n${name}-mcp +ok +1 `), doctor);

    // The checks the agent's work must pass, from outside: fmt, lint (the tests type-checked it), wiring.
    await shellRun(shell, `deno fmt --check mcp/${name} tests/mcp/${name} deno.json mcp/gateway`);
    await shellRun(shell, `deno lint mcp/${name} tests/mcp/${name}`);
    // The release build runs `deno task compile`, whose list is every mcp/*/server.json.
    assert.match(await shellRun(shell, "deno task compile --list"), new RegExp(`\\n${name}\\n`));
    const readme = await Deno.readTextFile(copy.join("README.md"));
    assert.match(readme, new RegExp(`\\*\\*${name}-mcp\\*\\* .*\`${name}_count\``));
    await assert.rejects(Deno.stat(copy.join(`.continue/mcpServers/${name}.yaml`)), Deno.errors.NotFound);
    const denoJson = JSON.parse(await Deno.readTextFile(copy.join("deno.json")));
    assert.match(
      denoJson.tasks[`compile:${name}`],
      /--allow-read --allow-env --allow-run --output dist\/loc-mcp/,
    );

    // Callable through the gateway, from its example config, hosted in its process.
    await seed(copy.path, GATEWAY_FIXTURE);
    await using gateway = await spawnServerDir(pathToFileURL(copy.join("mcp/gateway/")), {
      cwd: copy.path,
      env: {
        MCP_WORKSPACE: copy.path,
        MCP_GATEWAY_CONFIG: copy.join("mcp/gateway/gateway.config.example.jsonc"),
      },
    });
    let answer = "";
    await waitFor("the gateway to serve loc__loc_count", async () => {
      const result = await gateway.client.callTool({
        name: "gateway_call",
        arguments: { name: `${name}__${name}_count`, arguments: { path: "counted" } },
      }) as CallToolResult;
      answer = textOf(result);
      return !result.isError;
    }, 60_000);
    assert.equal(
      answer,
      "language    files  lines\nTypeScript      1      3\nSQL             1      1\ntotal           2      4",
    );
  },
});
