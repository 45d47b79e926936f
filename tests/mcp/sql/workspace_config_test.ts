/** Reading the workspace config itself: no link out of the workspace, no device or pipe, no huge file. */
import assert from "node:assert/strict";
import { chooseConfig } from "../../../mcp/sql/workspace_config.ts";
import type { Backend } from "../../../mcp/sql/backend.ts";
import { ToolError } from "../../../lib/mcp/errors.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const SQLFLUFF: Backend = { kind: "sqlfluff", path: "sqlfluff", version: "1.4.5", major: 1 };
const SQRUFF: Backend = { kind: "sqruff", path: "sqruff", version: "0.44.0", major: 0 };
const action = { action: "Cannot lint SQL" };

async function rejection(backend: Backend, root: string): Promise<ToolError> {
  const error = await chooseConfig(backend, root, action).then(() => null, (e) => e);
  assert.ok(error instanceof ToolError, `expected a ToolError, got ${error}`);
  return error;
}

Deno.test({
  name: "a workspace config linking out of the workspace is outside_workspace, and is not read",
  ignore: isWindows, // Symlinks need privileges there.
  async fn() {
    await using outside = await tempWorkspace({ "secret.ini": "[sqlfluff]\ndialect = ansi\n" });
    await using ws = await tempWorkspace({
      ".sqlfluff": { symlink: outside.join("secret.ini") },
      "inner.cfg": "[sqlfluff]\ndialect = postgres\n",
      ".sqruff": { symlink: "inner.cfg" },
    });
    const error = await rejection(SQLFLUFF, ws.path);
    assert.equal(error.code, "outside_workspace");
    assert.equal(
      error.message,
      "Cannot lint SQL: cannot use .sqlfluff: it links to a file outside the workspace; replace the link with a file",
    );
    // A link that stays inside is just a file.
    assert.match((await chooseConfig(SQRUFF, ws.path, action)).text, /dialect = postgres/);
  },
});

Deno.test({
  name: "a workspace config that is a pipe, or a link to a device, never blocks the call",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ ".sqruff": { symlink: "/dev/zero" } });
    assert.equal((await rejection(SQRUFF, ws.path)).code, "outside_workspace");
    await Deno.remove(ws.join(".sqruff"));
    const mkfifo = await new Deno.Command("mkfifo", { args: [ws.join(".sqruff")] }).output();
    assert.ok(mkfifo.success);
    const error = await rejection(SQRUFF, ws.path);
    assert.equal(error.code, "invalid_argument");
    assert.match(error.message, /cannot use \.sqruff: it is not a regular file/);
  },
});

Deno.test("a huge workspace config is too_large; a folder of that name or none at all means the house style", async () => {
  await using ws = await tempWorkspace({ ".sqlfluff": `[sqlfluff]\n${"# x\n".repeat(70_000)}` });
  const error = await rejection(SQLFLUFF, ws.path);
  assert.equal(error.code, "too_large");
  assert.match(error.message, /cannot use \.sqlfluff: 280\d+ bytes, over the 256 KB a config may have/);
  await using folder = await tempWorkspace({ ".sqlfluff/": "" });
  assert.equal((await chooseConfig(SQLFLUFF, folder.path, action)).label, "house style");
});
