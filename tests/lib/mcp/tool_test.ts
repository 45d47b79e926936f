import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "../../../lib/mcp/tool.ts";
import { createMcpServer } from "../../../lib/mcp/server.ts";
import { ToolError } from "../../../lib/mcp/errors.ts";
import { TEXT_RESULT_CAP } from "../../../lib/mcp/render.ts";
import { connect, textOf } from "../../_support/connect.ts";

const ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

function testServer(cleanup?: () => void) {
  return createMcpServer({
    name: "t",
    instructions: "test",
    cleanup,
    tools: [
      defineTool({
        name: "t_sum",
        description: "Add numbers.",
        input: { a: z.number().int(), b: z.number().int().max(10).optional(), flag: z.boolean().optional() },
        output: { sum: z.number(), flag: z.boolean() },
        annotations: ANNOTATIONS,
        run: ({ a, b, flag }) => ({ sum: a + (b ?? 0), flag: flag ?? false }),
      }),
      defineTool({
        name: "t_list",
        description: "Count items.",
        input: { items: z.union([z.string(), z.array(z.string())]) },
        annotations: ANNOTATIONS,
        run: ({ items }) => `${Array.isArray(items) ? items.length : 1} item(s)`,
      }),
      defineTool({
        name: "t_echo",
        description: "Echo text.",
        input: { text: z.string(), tags: z.array(z.string()).optional(), count: z.number().optional() },
        output: { text: z.string(), tags: z.array(z.string()), count: z.number() },
        annotations: ANNOTATIONS,
        run: ({ text, tags, count }) => ({ text, tags: tags ?? [], count: count ?? 0 }),
      }),
      defineTool({
        name: "t_fail",
        description: "Fail.",
        input: { how: z.enum(["tool", "crash"]) },
        annotations: ANNOTATIONS,
        run: ({ how }) => {
          if (how === "tool") throw new ToolError("conflict", 'Cannot do "x": it changed; read it again');
          throw new TypeError("boom");
        },
      }),
      defineTool({
        name: "t_progress",
        description: "Report progress.",
        input: {},
        annotations: ANNOTATIONS,
        run: (_input, { progress }) => {
          progress("half", 1, 2);
          progress("done", 2, 2);
          return "ok";
        },
      }),
    ],
  });
}

Deno.test("defineTool rejects names outside [a-z0-9_]{1,40}", () => {
  const spec = { description: "x", input: {}, annotations: ANNOTATIONS, run: () => "" };
  assert.throws(() => defineTool({ ...spec, name: "t.dot" }));
  assert.throws(() => defineTool({ ...spec, name: "T_upper" }));
  assert.throws(() => defineTool({ ...spec, name: "t_" + "x".repeat(40) }));
});

Deno.test("registerTools requires the server prefix", () => {
  const tool = defineTool({
    name: "other_x",
    description: "x",
    input: {},
    annotations: ANNOTATIONS,
    run: () => "",
  });
  assert.throws(
    () => createMcpServer({ name: "t", instructions: "", tools: [tool] }),
    /must start with "t_"/,
  );
  // Tool names allow no "-": a dashed server's tools use "_" in its place.
  assert.throws(
    () => createMcpServer({ name: "other-x", instructions: "", tools: [tool] }),
    /must start with "other_x_"/,
  );
  const dashed = defineTool({
    name: "other_x_y",
    description: "x",
    input: {},
    annotations: ANNOTATIONS,
    run: () => "",
  });
  assert.ok(createMcpServer({ name: "other-x", instructions: "", tools: [dashed] }));
});

Deno.test("tools/list schemas are flat and carry no $schema", async () => {
  await using c = await connect(testServer());
  const { tools } = await c.client.listTools();
  for (const tool of tools) {
    const json = JSON.stringify(tool.inputSchema);
    assert.ok(!json.includes("$schema") && !json.includes("$ref") && !json.includes("$defs"), json);
  }
  assert.ok(tools.find((t) => t.name === "t_sum")?.outputSchema);
  assert.equal(tools.find((t) => t.name === "t_list")?.outputSchema, undefined);
});

Deno.test("JSON tools return structuredContent and the same JSON as text", async () => {
  await using c = await connect(testServer());
  const result = await c.call("t_sum", { a: 2, b: 3 });
  assert.deepEqual(result.structuredContent, { sum: 5, flag: false });
  assert.deepEqual(JSON.parse(textOf(result)), { sum: 5, flag: false });
});

Deno.test("numbers, booleans and arrays sent as strings are repaired before validation", async () => {
  await using c = await connect(testServer());
  assert.deepEqual((await c.call("t_sum", { a: "2", b: " 3", flag: "true" })).structuredContent, {
    sum: 5,
    flag: true,
  });
  assert.equal(await c.text("t_list", { items: '["a","b"]' }), "1 item(s)", "a string is a valid value here");
});

Deno.test("numbers and booleans sent where text is expected become their text; the schema stays string", async () => {
  await using c = await connect(testServer());
  // MCP Inspector 2.x sends `text=123` as a number, mcporter `command=true` as a boolean.
  const result = await c.call("t_echo", { text: 123, tags: [true, 1.5, "x"], count: 7 });
  assert.deepEqual(result.structuredContent, { text: "123", tags: ["true", "1.5", "x"], count: 7 });
  assert.equal((await c.call("t_echo", { text: false })).structuredContent?.text, "false");
  assert.equal((await c.call("t_list", { items: 5 })).isError, undefined, "string or list of strings: text");
  const refused = await c.call("t_echo", { text: { a: 1 } });
  assert.equal(refused.isError, true, "an object is not text a user typed");
  const { tools } = await c.client.listTools();
  const schema = tools.find((t) => t.name === "t_echo")?.inputSchema as {
    properties: Record<string, { type?: string; items?: { type?: string } }>;
  };
  assert.equal(schema.properties.text.type, "string");
  assert.equal(schema.properties.tags.items?.type, "string");
});

Deno.test("schema violations are invalid_argument results naming each field", async () => {
  await using c = await connect(testServer());
  const result = await c.call("t_sum", { a: 1.5, b: 11 });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /^Error \[invalid_argument\]: Cannot call t_sum: "a": .*; "b": too big/);
});

Deno.test("a ToolError keeps its code; an unexpected throw becomes internal", async () => {
  await using c = await connect(testServer());
  const tool = await c.call("t_fail", { how: "tool" });
  assert.equal(textOf(tool), 'Error [conflict]: Cannot do "x": it changed; read it again');
  assert.deepEqual(tool._meta, { code: "conflict" });
  assert.equal(tool.structuredContent, undefined);
  const crash = await c.call("t_fail", { how: "crash" });
  assert.match(textOf(crash), /^Error \[internal\]: t_fail failed unexpectedly: boom/);
});

Deno.test("progress notifications reach a client that sent a progress token", async () => {
  await using c = await connect(testServer());
  const seen: string[] = [];
  const result = await c.client.callTool({ name: "t_progress", arguments: {} }, undefined, {
    onprogress: (p) => seen.push(`${p.progress}/${p.total} ${p.message}`),
  });
  assert.equal(textOf(result as never), "ok");
  // Notifications travel ahead of the response on the same ordered transport.
  assert.deepEqual(seen, ["1/2 half", "2/2 done"]);
});

Deno.test("closing the handle runs the cleanup hook once", async () => {
  let cleaned = 0;
  const handle = testServer(() => void cleaned++);
  {
    await using _c = await connect(handle);
  }
  await handle.close();
  assert.equal(cleaned, 1);
});

Deno.test("a text result over the server-wide cap is cut with the cut stated", async () => {
  const handle = createMcpServer({
    name: "big",
    instructions: "",
    tools: [
      defineTool({
        name: "big_dump",
        description: "Dump.",
        input: {},
        annotations: ANNOTATIONS,
        run: () => "line\n".repeat(TEXT_RESULT_CAP),
      }),
    ],
  });
  await using c = await connect(handle);
  const text = await c.text("big_dump");
  assert.ok(text.length <= TEXT_RESULT_CAP, `${text.length} characters`);
  assert.match(text, /\[\.\.\. [\d,]+ bytes \/ [\d,]+ lines cut \.\.\.\]/);
  assert.ok(text.startsWith("line\n") && text.endsWith("line\n"));
});

Deno.test("argument errors say what is missing, and which constraint a list broke", async () => {
  await using c = await connect(testServer());
  assert.match(await c.text("t_list", {}), /"items": missing \(expected string or array\)$/);
  assert.match(
    await c.text("t_list", { items: { a: 1 } }),
    /"items": expected string or array, received object$/,
  );
  assert.match(await c.text("t_sum", { a: 1, b: 99 }), /"b": too big: expected number to be <=10$/);
});
