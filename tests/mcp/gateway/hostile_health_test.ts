/**
 * A downstream server that lists a malformed tool, or crashes at start, or keeps crashing: the gateway keeps
 * what works, says why in one line, and search shows the real reason while it backs off.
 */
import assert from "node:assert/strict";
import { Downstreams } from "../../../mcp/gateway/downstream.ts";
import { scriptServer } from "./_config.ts";
import { front } from "./_gateway.ts";

const SECRET = "tangerine-otter-velvet-9931";

function open(...configs: Parameters<typeof scriptServer>[]) {
  const logs: string[] = [];
  const log = { info: (line: string) => logs.push(line), error: (line: string) => logs.push(line) };
  return Object.assign(new Downstreams(configs.map((args) => scriptServer(...args)), { log }), { logs });
}

Deno.test("hostile health: one tool with inputSchema {type: string} is skipped with a one-line reason; the rest stay", async () => {
  await using downstreams = open(["hostile", "hostile.ts", { env: { HOSTILE_BAD_TOOL: "1" } }]);
  await downstreams.start();
  const [status] = downstreams.status();
  assert.equal(status.state, "up", status.reason);
  const names = downstreams.catalog().map((tool) => tool.name);
  assert.ok(names.includes("pid") && names.includes("big") && !names.includes("broken"), names.join(", "));
  const skipped = downstreams.logs.filter((line) => line.includes('"broken"'));
  assert.equal(skipped.length, 1, downstreams.logs.join("\n"));
  assert.match(skipped[0], /^MCP server "hostile": skipped its tool "broken": inputSchema\.type: .*object/);
  assert.ok(!skipped[0].includes("\n") && skipped[0].length < 300, skipped[0]);
});

Deno.test("hostile health: a server that crashes at start is down with the last lines of its stderr, redacted", async () => {
  await using downstreams = open([
    "crashy",
    "hostile.ts",
    { env: { HOSTILE_CRASH: "1", HOSTILE_SECRET: SECRET } },
  ]);
  await downstreams.start();
  const [status] = downstreams.status();
  assert.equal(status.state, "down");
  const reason = status.reason ?? "";
  assert.match(
    reason,
    /^Cannot connect to MCP server "crashy": it exited \(code 1\) before answering; its stderr ends: /,
  );
  assert.match(reason, /fatal: the API refused the key \[redacted\]/);
  assert.match(reason, /at main \(server\.js:12\)/);
  assert.ok(!reason.includes(SECRET) && reason.length <= 1_000, reason);
});

Deno.test("hostile health: while a crashing server backs off, every search shows why it is down, never 'connecting'", async () => {
  let clock = 0;
  await using gateway = await front([
    scriptServer("crashy", "hostile.ts", { env: { HOSTILE_CRASH: "1" } }),
  ], { now: () => clock });
  for (let i = 0; i < 6; i++) {
    const health = (await gateway.search("anything")).split("\n").at(-1) ?? "";
    assert.match(
      health,
      /^\[down: crashy \(Cannot connect to MCP server "crashy": /,
      `search ${i + 1}: ${health}`,
    );
    // The retry that search started: let it fail, then move past its backoff.
    await gateway.downstreams.retryDown();
    clock += 61_000;
  }
});
