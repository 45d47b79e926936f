/**
 * Multi-turn flows under the real Continue CLI: the gateway's search → call, the shell's long job followed
 * over several model turns, a refused call caught, a block file without `version:` ignored, and the
 * network seal around every run.
 * Run with `deno task e2e`.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { GUARD_PATH, sealedEnv } from "./cn.ts";
import {
  BLOCKS_DIR,
  calls,
  DONE,
  type Exchange,
  installServers,
  type Reply,
  runScenario,
} from "./harness.ts";

Deno.test("cn + gateway.yaml: gateway_search finds notes_write, gateway_call runs it", async () => {
  const body = `Gateway e2e note ${crypto.randomUUID().slice(0, 8)}`;
  let found = "";
  await using run = await runScenario({
    servers: ["gateway"],
    files: {
      ".git/": "",
      // The README's tail wiring: this project's servers inside the gateway's own process.
      "gateway.config.jsonc":
        '{ "mcpServers": { "notes": { "builtin": "notes" }, "sql": { "builtin": "sql" } } }',
    },
    env: { MCP_GATEWAY_CONFIG: "gateway.config.jsonc" },
    script: (exchanges): Reply => {
      if (exchanges.length === 0) return { call: "gateway_search", arguments: { query: "write a note" } };
      if (exchanges.length === 1) {
        found = exchanges[0].result.match(/[\w-]*notes_write\b/)?.[0] ?? "";
        assert.ok(found, `gateway_search did not list notes_write:\n${exchanges[0].result}`);
        return { call: "gateway_call", arguments: { name: found, arguments: { slug: "via-gateway", body } } };
      }
      return { text: DONE };
    },
  });
  assert.deepEqual(run.exchanges.map((e) => e.name), ["gateway_search", "gateway_call"]);
  assert.match(run.exchanges[1].result, /via-gateway/);
  const note = await Deno.readTextFile(join(run.workspace, ".continue-notes", "via-gateway.md"));
  assert.match(note, new RegExp(body));
});

Deno.test("cn + shell.yaml: a long job followed with shell_output over several model turns", async () => {
  // The job waits for a file the fake model creates between turns, so "still running" is certain.
  const command = "echo phase-1; while [ ! -f release ]; do sleep 0.05; done; echo phase-2";
  await using run = await runScenario({
    servers: ["shell"],
    script: (exchanges, workspace): Reply => {
      if (exchanges.length === 0) return { call: "shell_start", arguments: { command } };
      const jobId = Number(exchanges[0].result.match(/^job (\d+) running/)?.[1]);
      assert.ok(jobId, `shell_start gave no job id:\n${exchanges[0].result}`);
      const last = exchanges.at(-1)!.result;
      if (/exit \d+ after/.test(last)) return { text: DONE };
      if (/phase-1/.test(last)) Deno.writeTextFileSync(join(workspace, "release"), "");
      return { call: "shell_output", arguments: { job_id: jobId, wait_s: 10 } };
    },
  });
  const [start, ...outputs] = run.exchanges;
  assert.equal(start.name, "shell_start");
  assert.ok(outputs.length >= 2, `expected several shell_output turns, got ${outputs.length}`);
  assert.ok(outputs.every((e: Exchange) => e.name === "shell_output"));
  assert.match(outputs[0].result, /running/);
  assert.match(outputs[0].result, /phase-1/);
  const rest = outputs.slice(1).map((e) => e.result).join("\n");
  assert.match(rest, /phase-2/);
  assert.doesNotMatch(rest, /phase-1/, "shell_output re-sent output the model had already read");
  assert.match(outputs.at(-1)!.result, /exit 0 after/);
  assert.match(run.cn.stdout, new RegExp(DONE));
});

Deno.test("harness: a call cn refuses fails the scenario, though cn exits 0 and prints nothing", async () => {
  // Headless cn cannot ask: an "ask" tool leaves tools[], and a call to it ends the run with no follow-up.
  await assert.rejects(
    runScenario({
      servers: ["hello"],
      args: ["--ask", "hello_echo"],
      script: calls({ call: "hello_echo", arguments: { text: "refused" } }),
    }),
    /calls without a result/,
  );
});

Deno.test("network seal: Node refuses non-loopback hosts; Deno goes through the dead proxy", async () => {
  const home = await Deno.makeTempDir({ prefix: "continue-mcp-e2e-seal-" });
  try {
    const refusedLog = join(home, "refused.log");
    await Deno.writeTextFile(refusedLog, "");
    const env = await sealedEnv(home, refusedLog);
    const node = await new Deno.Command("node", {
      args: [
        "--import",
        GUARD_PATH,
        "-e",
        "fetch('https://registry.npmjs.org/').then(() => process.exit(0))",
      ],
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.notEqual(node.code, 0, "Node reached registry.npmjs.org through the guard");
    assert.equal((await Deno.readTextFile(refusedLog)).trim(), "registry.npmjs.org");

    const deno = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "await fetch('https://registry.npmjs.org/')"],
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.notEqual(deno.code, 0, "Deno reached registry.npmjs.org past the dead proxy");
    assert.match(new TextDecoder().decode(deno.stderr), /127\.0\.0\.1|proxy|connect/i);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("deno task install writes the block files this repository ships, each command an absolute path", async () => {
  const { bin, workspace } = await installServers();
  for await (const entry of Deno.readDir(BLOCKS_DIR)) {
    const written = await Deno.readTextFile(join(workspace, ".continue", "mcpServers", entry.name));
    const shipped = await Deno.readTextFile(join(BLOCKS_DIR, entry.name));
    // The installer knows where it put each server (Continue in VS Code need not see the shell's PATH).
    const expected = shipped.replace(
      /^(\s*command: )"([^"]+)"$/m,
      (_, key, name) => key + JSON.stringify(join(bin, name)),
    );
    assert.notEqual(expected, shipped, `${entry.name} names a command`);
    assert.equal(written, expected, entry.name);
  }
});

Deno.test("cn ignores a block file without version: (silently, exit 0)", async () => {
  const shipped = await Deno.readTextFile(join(BLOCKS_DIR, "hello.yaml"));
  const unversioned = shipped.replace(/^version: .*\n/m, "");
  assert.notEqual(unversioned, shipped);
  await using run = await runScenario({
    servers: [],
    files: { ".continue/mcpServers/hello.yaml": unversioned },
    args: ["--mcp", "./.continue/mcpServers/hello.yaml"],
    script: () => ({ text: DONE }),
  });
  const names = (run.requests[0].tools ?? []).map((tool) => tool.function.name);
  assert.ok(names.includes("Read"), names.join(", "));
  assert.ok(!names.some((name) => name.startsWith("hello_")), names.join(", "));
});
