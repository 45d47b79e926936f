/**
 * mcporter (pinned in install.ts, run with Deno) lists and calls every server's tools over an ad-hoc stdio
 * server. Run by `deno task e2e:clients`, not by `deno task test` (the file name keeps it out of the scan).
 * @module
 */
import assert from "node:assert/strict";
import { ensureClients } from "./install.ts";
import { openPlace, runMcporter, snapshotToolNames } from "./run_client.ts";
import { SCENARIOS } from "./scenarios.ts";

await ensureClients();

for (const scenario of SCENARIOS) {
  const call = scenario.mcporter;
  Deno.test(`mcporter: ${scenario.server} list, then call ${call.tool}`, async () => {
    await using place = await openPlace(scenario.files, scenario.serverEnv);
    const listed = await runMcporter(scenario.server, "list", ["--json"], place);
    assert.equal(listed.code, 0, listed.stderr);
    const { status, tools } = JSON.parse(listed.stdout) as { status: string; tools: { name: string }[] };
    assert.equal(status, "ok", listed.stdout);
    assert.deepEqual(tools.map((tool) => tool.name), await snapshotToolNames(scenario.server));

    const json = call.json ? ["--args", JSON.stringify(call.json)] : [];
    const called = await runMcporter(scenario.server, "call", [call.tool, ...call.args, ...json], place);
    // The printed text, not only the exit code, proves the call worked.
    assert.equal(called.code, 0, `${called.stdout}\n${called.stderr}`);
    const text = called.stdout.trim();
    assert.doesNotMatch(text, /^Error \[/);
    assert.match(text, call.expect);
    await call.effect?.(place.cwd);
  });
}
