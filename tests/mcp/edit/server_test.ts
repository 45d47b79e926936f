import assert from "node:assert/strict";
import { encode } from "gpt-tokenizer";
import { connect, textOf } from "../../_support/connect.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { assertSnapshot } from "../../_support/snapshot.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { createServer } from "../../../mcp/edit/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { editFixture } from "./fixture.ts";

const TOKEN_BUDGET = 400;

Deno.test("tools/list matches the snapshot", async () => {
  await using c = await connect(createServer({ workspace: new Workspace({ cwd: Deno.cwd() }) }));
  const { tools } = await c.client.listTools();
  await assertSnapshot(new URL("../../../mcp/edit/tools.json", import.meta.url), tools);
});

Deno.test(`tools/list fits the server's ${TOKEN_BUDGET}-token budget and the description limits`, async () => {
  await using c = await connect(createServer({ workspace: new Workspace({ cwd: Deno.cwd() }) }));
  const { tools } = await c.client.listTools();
  const text = tools.map((tool) => tool.name + (tool.description ?? "") + JSON.stringify(tool.inputSchema))
    .join("");
  assert.ok(encode(text).length <= TOKEN_BUDGET, `${encode(text).length} tokens`);
  for (const tool of tools) {
    assert.ok((tool.description ?? "").length <= 200, tool.name);
    assert.deepEqual(tool.annotations, {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
    const descriptions = JSON.stringify(tool.inputSchema).match(/"description":"[^"]*"/g) ?? [];
    for (const description of descriptions) assert.ok(description.length - 16 <= 80, description);
  }
});

Deno.test("the error result carries the toolkit code and the spec kind in _meta, and no structuredContent", async () => {
  await using f = await editFixture({ "a.txt": "a\n" });
  const result = await f.call("edit_file", { path: "a.txt", edits: [{ old_text: "zzz", new_text: "y" }] });
  assert.equal(result.isError, true);
  assert.deepEqual(result._meta, { kind: "no_match", code: "not_found" });
  assert.equal(result.structuredContent, undefined);
  assert.match(textOf(result), /^Error \[not_found\]: Cannot edit "a\.txt": edit 0: old_text not found/);
});

Deno.test("a call without edits is an invalid_argument schema rejection", async () => {
  await using f = await editFixture({ "a.txt": "a\n" });
  const failure = await f.fail("edit_file", { path: "a.txt" });
  assert.equal(failure.code, "invalid_argument");
  assert.match(failure.text, /"edits"/);
});

Deno.test("accepted shapes: top-level old_text/new_text, camelCase keys, filePath", async () => {
  await using f = await editFixture({ "a.txt": "one two\n" });
  await f.call("edit_file", { path: "a.txt", old_text: "one", new_text: "1" });
  await f.call("edit_file", { filePath: "a.txt", edits: [{ oldText: "two", newText: "2" }] });
  assert.equal(await f.read("a.txt"), "1 2\n");
});

Deno.test("accepted shapes: edits as a JSON string or a single object; replaceAll/expectedCount", async () => {
  await using f = await editFixture({ "a.txt": "x x\ny\n" });
  await f.call("edit_file", { path: "a.txt", edits: JSON.stringify([{ old_text: "y", new_text: "z" }]) });
  await f.call("edit_file", {
    path: "a.txt",
    edits: { oldText: "x", newText: "w", replaceAll: true, expectedCount: 2 },
  });
  assert.equal(await f.read("a.txt"), "w w\nz\n");
});

Deno.test("invalid_request: expected_count without replace_all", async () => {
  await using f = await editFixture({ "a.txt": "x\n" });
  const failure = await f.fail("edit_file", {
    path: "a.txt",
    edits: [{ old_text: "x", new_text: "y", expected_count: 2 }],
  });
  assert.equal(failure.kind, "invalid_request");
  assert.match(failure.text, /expected_count 2 without replace_all; set replace_all: true/);
});

Deno.test("invalid_request: expected_count that is not a whole number", async () => {
  await using f = await editFixture({ "a.txt": "x\n" });
  const failure = await f.fail("edit_file", {
    path: "a.txt",
    edits: [{ old_text: "x", new_text: "y", replace_all: true, expected_count: 1.5 }],
  });
  assert.equal(failure.kind, "invalid_request");
  assert.match(failure.text, /expected_count 1\.5; use a whole number/);
});

Deno.test("invalid_request: an empty old_text among several edits", async () => {
  await using f = await editFixture({ "a.txt": "x\n" });
  const failure = await f.fail("edit_file", {
    path: "a.txt",
    edits: [{ old_text: "", new_text: "y" }, { old_text: "x", new_text: "z" }],
  });
  assert.equal(failure.kind, "invalid_request");
  assert.match(failure.text, /old_text "" \(create a file\) works only as the single edit of a call/);
});

Deno.test("invalid_request: an unpaired surrogate in new_text", async () => {
  await using f = await editFixture({ "a.txt": "x\n" });
  const failure = await f.fail("edit_file", {
    path: "a.txt",
    edits: [{ old_text: "x", new_text: "\uD800" }],
  });
  assert.equal(failure.kind, "invalid_request");
  assert.match(failure.text, /edit 0 contains an unpaired surrogate/);
});

Deno.test("invalid_request: expected_sha256 that is not 64 hex digits", async () => {
  await using f = await editFixture({ "a.txt": "x\n" });
  const failure = await f.fail("edit_file", {
    path: "a.txt",
    edits: [{ old_text: "x", new_text: "y" }],
    expected_sha256: "abc",
  });
  assert.equal(failure.kind, "invalid_request");
});

Deno.test("stdio: a real client lists both tools and edits a file over pipes", async () => {
  await using ws = await tempWorkspace({ "a.txt": "hello\r\n" });
  await using c = await spawnStdio("edit", { cwd: ws.path });
  const { tools } = await c.client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ["edit_file", "edit_write"]);
  const result = await c.client.callTool({
    name: "edit_file",
    arguments: { path: "a.txt", edits: [{ old_text: "hello", new_text: "bye" }] },
  });
  assert.equal(result.isError, undefined);
  assert.equal(await Deno.readTextFile(ws.join("a.txt")), "bye\r\n");
});
