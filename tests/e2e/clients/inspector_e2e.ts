/**
 * The MCP Inspector CLI (pinned in install.ts, run with Deno) lists and calls every server's tools over
 * stdio. Run by `deno task e2e:clients`, not by `deno task test` (the file name keeps it out of the scan).
 * @module
 */
import assert from "node:assert/strict";
import { listServers } from "../../../tools/catalog.ts";
import { ensureClients } from "./install.ts";
import { openPlace, runInspector, snapshotToolNames } from "./run_client.ts";
import { SCENARIOS } from "./scenarios.ts";

await ensureClients();

Deno.test("every server has a client scenario", () => {
  assert.deepEqual(SCENARIOS.map((scenario) => scenario.server), listServers().map((server) => server.name));
});

for (const scenario of SCENARIOS) {
  const call = scenario.inspector;
  Deno.test(`inspector: ${scenario.server} tools/list, then tools/call ${call.tool}`, async () => {
    await using place = await openPlace(scenario.files, scenario.serverEnv);
    // --strict: the Inspector's schema portability check fails the run on an error-severity problem.
    const listed = await runInspector(scenario.server, ["--method", "tools/list", "--strict"], place);
    assert.equal(listed.code, 0, listed.stderr);
    const { tools } = JSON.parse(listed.stdout) as { tools: { name: string }[] };
    assert.deepEqual(tools.map((tool) => tool.name), await snapshotToolNames(scenario.server));

    const args = ["--method", "tools/call", "--tool-name", call.tool, "--tool-arg", ...call.args];
    const called = await runInspector(scenario.server, args, place);
    assert.equal(called.code, 0, `${called.stdout}\n${called.stderr}`);
    const result = JSON.parse(called.stdout) as {
      isError?: boolean;
      content: { type: string; text?: string }[];
    };
    const text = result.content.filter((block) => block.type === "text").map((block) => block.text).join(
      "\n",
    );
    assert.notEqual(result.isError, true, text);
    assert.match(text, call.expect);
    await call.effect?.(place.cwd);
  });
}
