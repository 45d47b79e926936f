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

/** A git checkout with an ignored .env, an ignored secret, an ignored folder, a hidden file and visible ones. */
const HIDDEN_FIXTURE = {
  ".git/HEAD": "ref: refs/heads/main\n",
  ".gitignore": ".env\nsecret.json\nbuild/\n*.log\n",
  ".env": "API_KEY=hunter2\n",
  ".npmrc": "//registry/:_authToken=x\n",
  "secret.json": "{}",
  "build/app.js": "",
  "src/app.log": "",
  "src/app.ts": "",
  "config.yaml": "",
};

Deno.test("similarPaths names only what fs_list shows: no gitignored or hidden files, folders or parts", async () => {
  await using ws = await tempWorkspace(HIDDEN_FIXTURE);
  const rg = await locateRipgrep();
  const similar = (path: string) => similarPaths(ws.join(path), { root: ws.path, rg });
  assert.deepEqual(await similar("env"), [], "a gitignored, hidden .env");
  assert.deepEqual(await similar("npmrc"), [], "a hidden .npmrc");
  assert.deepEqual(await similar("secret.jsn"), [], "a gitignored secret.json");
  assert.deepEqual(await similar("buil/app.js"), [], "a file in a gitignored folder");
  assert.deepEqual(
    await similar("src/app.lg"),
    [ws.join("src/app.ts")],
    "a gitignored *.log, not its visible twin",
  );
  assert.deepEqual(await similar("sr/app.log"), [], "a gitignored file under a visible folder");
  assert.deepEqual(await similar("elsewhere/secret.json"), [], "the same-name search");
  assert.deepEqual(await similar("elsewhere/.env"), [], "the same-name search of a hidden name");
  // Visible near-misses are still named.
  assert.deepEqual(await similar("config.yml"), [ws.join("config.yaml")]);
  assert.deepEqual(await similar("sr/app.ts"), [ws.join("src/app.ts")]);
  assert.deepEqual(await similar("lib/app.ts"), [ws.join("src/app.ts")]);
});

Deno.test("similarPaths without ripgrep suggests nothing rather than names it cannot check", async () => {
  await using ws = await tempWorkspace(HIDDEN_FIXTURE);
  assert.deepEqual(await similarPaths(ws.join("env"), { root: ws.path, rg: null }), []);
  assert.deepEqual(await similarPaths(ws.join("config.yml"), { root: ws.path, rg: null }), []);
});

Deno.test("similarPaths names what fs_list adds by reading a folder: collapsed, empty and symlinked entries", async () => {
  await using ws = await tempWorkspace({
    ".git/HEAD": "ref: refs/heads/main\n",
    ".gitignore": "node_modules/\n",
    "node_modules/pkg/index.js": "",
    "assets/": "",
    "target.txt": "",
    "linked.txt": { symlink: "target.txt" },
  });
  const rg = await locateRipgrep();
  const similar = (path: string) => similarPaths(ws.join(path), { root: ws.path, rg });
  assert.deepEqual(await similar("node_module"), [ws.join("node_modules")]);
  assert.deepEqual(await similar("asset"), [ws.join("assets")]);
  assert.deepEqual(await similar("linked.tx"), [ws.join("linked.txt")]);
});
