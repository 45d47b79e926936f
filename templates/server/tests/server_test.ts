import assert from "node:assert/strict";
import { connect, textOf } from "../../../tests/_support/connect.ts";
import { spawnServerDir } from "../../../tests/_support/stdio.ts";
import { assertSnapshot } from "../../../tests/_support/snapshot.ts";
import { tempWorkspace } from "../../../tests/_support/workspace.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { createServer } from "../server.ts";

/** The folder of the server under test (its main.ts and server.json). */
const SERVER_DIR = new URL("../", import.meta.url);

Deno.test("template_describe shows a path relative to the workspace", async () => {
  await using ws = await tempWorkspace({ "src/a.ts": "a" });
  await using c = await connect(createServer({ workspace: new Workspace({ cwd: ws.path }) }));
  assert.equal(await c.text("template_describe", { path: "src/../src/a.ts" }), "src/a.ts");
});

Deno.test("template_describe refuses a path outside the workspace", async () => {
  await using ws = await tempWorkspace();
  await using c = await connect(createServer({ workspace: new Workspace({ cwd: ws.path }) }));
  const result = await c.call("template_describe", { path: "../.." });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /^Error \[outside_workspace\]/);
});

Deno.test("template: tools/list matches the snapshot", async () => {
  await using c = await connect(createServer({ workspace: new Workspace({ cwd: Deno.cwd() }) }));
  await assertSnapshot(
    new URL("tools.json", new URL("../", import.meta.url)),
    (await c.client.listTools()).tools,
  );
});

Deno.test("template: the stdio entrypoint answers a real client", async () => {
  await using c = await spawnServerDir(SERVER_DIR);
  const { tools } = await c.client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), ["template_describe"]);
});
