/**
 * What an agent's arguments can make the gateway send back (issue 23, item 12): gateway_describe names at
 * most 20 tools in either form, select: at most 50, and no reply echoes a huge query or name whole.
 */
import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { Downstreams } from "../../../mcp/gateway/downstream.ts";
import { createFinder } from "../../../mcp/gateway/finder.ts";
import { createServer } from "../../../mcp/gateway/server.ts";
import { builtinServer } from "./_config.ts";

/** The gateway in front of the hello server, hosted in process. */
async function gateway() {
  const downstreams = new Downstreams([builtinServer("hello", "hello")], { log: { info() {}, error() {} } });
  await downstreams.start();
  return connect(createServer({
    backend: {
      catalog: () => downstreams.catalog(),
      status: () => downstreams.status(),
      call: (name, args, options) => downstreams.call(name, args, options),
    },
    finder: createFinder(),
    cleanup: () => downstreams.close(),
  }));
}

const PING = "hello__hello_ping";
const MEGABYTE = 1_000_000;

Deno.test("limits: gateway_describe takes at most 20 names, as an array or as a comma string", async () => {
  await using c = await gateway();
  // The array form was always limited by its schema; the string form returned 119,643 characters.
  const array = await c.call("gateway_describe", { names: Array(21).fill(PING) });
  assert.equal(array.isError, true);
  assert.match(textOf(array), /^Error \[invalid_argument\]/);
  const string = await c.call("gateway_describe", { names: Array(5_000).fill(PING).join(",") });
  assert.equal(string.isError, true);
  assert.equal(
    textOf(string),
    "Error [invalid_argument]: Cannot describe 5,000 tools at once: at most 20 names per call",
  );
  const twenty = await c.text("gateway_describe", { names: Array(20).fill(PING).join(", ") });
  assert.equal(twenty.split("\n").length, 20);
});

Deno.test("limits: select: shows at most 50 tools", async () => {
  await using c = await gateway();
  const many = await c.call("gateway_search", { query: `select:${Array(5_000).fill(PING).join(",")}` });
  assert.equal(many.isError, true);
  assert.equal(
    textOf(many),
    "Error [invalid_argument]: Cannot select 5,000 tools at once: at most 50 names per search",
  );
  assert.equal((await c.text("gateway_search", { query: `select:${PING}` })).split("\n").length, 1);
});

Deno.test("limits: a megabyte query or tool name is quoted short in every reply", async () => {
  await using c = await gateway();
  const replies = [
    await c.call("gateway_search", { query: "q".repeat(MEGABYTE) }),
    await c.call("gateway_search", { query: `select:${"x".repeat(MEGABYTE)}` }),
    await c.call("gateway_describe", { names: "x".repeat(MEGABYTE) }),
    await c.call("gateway_call", { name: "x".repeat(MEGABYTE) }),
    await c.call("gateway_call_read", { name: `hello__${"x".repeat(MEGABYTE)}` }),
  ];
  for (const reply of replies) {
    const text = textOf(reply);
    assert.ok(text.length < 1_000, `${text.length} characters: ${text.slice(0, 80)}`);
    assert.match(text, /… \[[\d,]+ more characters\]/);
  }
});
