import assert from "node:assert/strict";
import { closeness, similarPaths } from "../../../mcp/fs/suggest.ts";
import { locateRipgrep } from "../../../lib/ripgrep/locate.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

Deno.test("closeness accepts typos, other extensions, case and prefixes, and rejects unrelated names", () => {
  assert.equal(closeness("README.md", "readme.md"), 0);
  assert.equal(closeness("a.js", "a.ts"), 1);
  assert.ok(closeness("utils", "util")! > 0);
  assert.ok(closeness("server", "server_test")! > 0);
  assert.equal(closeness("main.ts", "package.json"), null);
});

Deno.test("similarPaths corrects a misspelt folder, and finds the name elsewhere through ripgrep", async () => {
  await using ws = await tempWorkspace({
    ".git/HEAD": "",
    "src/util/strings.ts": "",
    "deep/er/config.yaml": "",
  });
  const rg = await locateRipgrep();
  assert.deepEqual(await similarPaths(ws.join("src/utils/strings.ts"), { root: ws.path, rg }), [
    ws.join("src/util/strings.ts"),
  ]);
  assert.deepEqual(await similarPaths(ws.join("config.yaml"), { root: ws.path, rg }), [
    ws.join("deep/er/config.yaml"),
  ]);
  assert.deepEqual(await similarPaths(ws.join("nothing-like-it"), { root: ws.path, rg }), []);
});
