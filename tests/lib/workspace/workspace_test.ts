import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { ToolError } from "../../../lib/mcp/errors.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { platform } from "../../../lib/platform/mod.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { waitFor } from "../../_support/poll.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

async function refused(ws: Workspace, path: string, code = "outside_workspace"): Promise<void> {
  await assert.rejects(ws.resolveInside(path), (error: unknown) => {
    assert.ok(error instanceof ToolError, `expected a ToolError for ${path}`);
    assert.equal(error.code, code, `${path}: ${error.message}`);
    return true;
  });
}

Deno.test("relative paths resolve against the primary root; .. inside stays allowed", async () => {
  await using tmp = await tempWorkspace({ "ws/src/a.ts": "a" });
  const ws = new Workspace({ cwd: tmp.join("ws") });
  assert.equal(await ws.resolveInside("src/a.ts"), tmp.join("ws", "src", "a.ts"));
  assert.equal(await ws.resolveInside("src/../src/a.ts"), tmp.join("ws", "src", "a.ts"));
  assert.equal(await ws.resolveInside(""), tmp.join("ws"));
  assert.equal(await ws.resolveInside("."), tmp.join("ws"));
  assert.equal(ws.display(tmp.join("ws", "src", "a.ts")), "src/a.ts");
});

Deno.test("escapes via .., absolute paths and a sibling with a shared prefix are refused", async () => {
  await using tmp = await tempWorkspace({ "ws/a": "", "ws-evil/b": "", "secret": "s" });
  const ws = new Workspace({ cwd: tmp.join("ws") });
  await refused(ws, "../secret");
  await refused(ws, "../../etc/passwd");
  await refused(ws, tmp.join("secret"));
  await refused(ws, "/etc/passwd");
  await refused(ws, "../ws-evil/b");
  await refused(ws, "a/../../secret");
});

Deno.test(
  "symlinks pointing out are refused, for files, folders and chains",
  { ignore: isWindows },
  async () => {
    await using tmp = await tempWorkspace({ "outside/secret.txt": "s", "ws/inner.txt": "i" });
    await Deno.symlink(tmp.join("outside", "secret.txt"), tmp.join("ws", "file-link"));
    await Deno.symlink(tmp.join("outside"), tmp.join("ws", "dir-link"));
    await Deno.symlink(tmp.join("ws", "dir-link"), tmp.join("ws", "chain-1"));
    await Deno.symlink(tmp.join("ws", "chain-1"), tmp.join("ws", "chain-2"));
    await Deno.symlink(tmp.join("ws", "inner.txt"), tmp.join("ws", "good-link"));
    const ws = new Workspace({ cwd: tmp.join("ws") });
    await refused(ws, "file-link");
    await refused(ws, "dir-link/secret.txt");
    await refused(ws, "chain-2/secret.txt");
    assert.equal(await ws.resolveInside("good-link"), tmp.join("ws", "inner.txt"));
  },
);

Deno.test(
  "a not-yet-existing path is judged by its nearest existing parent",
  { ignore: isWindows },
  async () => {
    await using tmp = await tempWorkspace({ "outside/": "", "ws/src/": "" });
    await Deno.symlink(tmp.join("outside"), tmp.join("ws", "linked"));
    const ws = new Workspace({ cwd: tmp.join("ws") });
    assert.equal(
      await ws.resolveInside("src/new/deep/file.ts"),
      tmp.join("ws", "src", "new", "deep", "file.ts"),
    );
    await refused(ws, "linked/new/file.ts");
  },
);

Deno.test(
  "a dangling symlink is judged by where its target would be created",
  { ignore: isWindows },
  async () => {
    await using tmp = await tempWorkspace({ "outside/": "", "ws/": "" });
    await Deno.symlink(tmp.join("outside", "not-yet.txt"), tmp.join("ws", "dangling-out"));
    await Deno.symlink(tmp.join("ws", "later.txt"), tmp.join("ws", "dangling-in"));
    const ws = new Workspace({ cwd: tmp.join("ws") });
    await refused(ws, "dangling-out");
    assert.equal(await ws.resolveInside("dangling-in"), tmp.join("ws", "later.txt"));
  },
);

Deno.test("a symlink loop is an error, not a hang", { ignore: isWindows }, async () => {
  await using tmp = await tempWorkspace({ "ws/": "" });
  await Deno.symlink(tmp.join("ws", "b"), tmp.join("ws", "a"));
  await Deno.symlink(tmp.join("ws", "a"), tmp.join("ws", "b"));
  const ws = new Workspace({ cwd: tmp.join("ws") });
  await assert.rejects(ws.resolveInside("a/x"));
});

Deno.test("NUL bytes are invalid arguments", async () => {
  await using tmp = await tempWorkspace({ "ws/a": "" });
  const ws = new Workspace({ cwd: tmp.join("ws") });
  await refused(ws, "a\0../../etc", "invalid_argument");
});

Deno.test("MCP_WORKSPACE lists roots, first is primary; MCP_ALLOW_DIRS adds folders", async () => {
  await using tmp = await tempWorkspace({
    "one/a.txt": "",
    "two/b.txt": "",
    "extra/c.txt": "",
    "no/d.txt": "",
  });
  const ws = new Workspace({
    cwd: tmp.path,
    workspaceEnv: [tmp.join("one"), tmp.join("two")].join(platform.listSeparator),
    allowDirsEnv: tmp.join("extra"),
  });
  assert.equal(ws.source, "env");
  assert.deepEqual(ws.roots, [tmp.join("one"), tmp.join("two")]);
  assert.equal(await ws.resolveInside("a.txt"), tmp.join("one", "a.txt"));
  assert.equal(await ws.resolveInside(tmp.join("two", "b.txt")), tmp.join("two", "b.txt"));
  assert.equal(await ws.resolveInside(tmp.join("extra", "c.txt")), tmp.join("extra", "c.txt"));
  await refused(ws, tmp.join("no", "d.txt"));
  assert.equal(ws.display(tmp.join("two", "b.txt")), tmp.join("two", "b.txt"));
});

Deno.test("client roots replace the cwd; resolution waits for them; env roots are kept", async () => {
  await using tmp = await tempWorkspace({ "cwd/": "", "client/x.txt": "" });
  const ws = new Workspace({ cwd: tmp.join("cwd") });
  let release!: (uris: string[]) => void;
  ws.adoptClientRoots(() => new Promise((resolve) => release = resolve));
  const pending = ws.resolveInside("x.txt");
  release([pathToFileURL(tmp.join("client")).href]);
  assert.equal(await pending, tmp.join("client", "x.txt"));
  assert.equal(ws.source, "roots");
  await ws.adoptClientRoots(() => Promise.resolve([]));
  assert.equal(ws.source, "cwd");

  const pinned = new Workspace({ cwd: tmp.path, workspaceEnv: tmp.join("cwd") });
  await pinned.adoptClientRoots(() => Promise.resolve([pathToFileURL(tmp.join("client")).href]));
  assert.deepEqual(pinned.roots, [tmp.join("cwd")]);
});

Deno.test("roots slower than the patience: resolution goes on in the cwd, a late answer is adopted, a stale one not", async () => {
  await using tmp = await tempWorkspace({ "cwd/x.txt": "", "late/x.txt": "", "stale/x.txt": "" });
  const ws = new Workspace({ cwd: tmp.join("cwd") });
  const answers: ((uris: string[]) => void)[] = [];
  const ask = () => new Promise<string[]>((resolve) => answers.push(resolve));
  let timeouts = 0;
  const patience = { ms: 0, onTimeout: () => timeouts++ };

  ws.adoptClientRoots(ask, patience);
  assert.equal(await ws.resolveInside("x.txt"), tmp.join("cwd", "x.txt"));
  assert.equal(timeouts, 1);
  answers[0]([pathToFileURL(tmp.join("late")).href]);
  await waitFor("the late roots adopted", () => ws.source === "roots");
  assert.equal(await ws.resolveInside("x.txt"), tmp.join("late", "x.txt"));

  // Asked twice, the first answer landing last: the second question's answer stands.
  ws.adoptClientRoots(ask, patience);
  ws.adoptClientRoots(ask, patience);
  await ws.ready();
  answers[2]([pathToFileURL(tmp.join("cwd")).href]);
  await waitFor("the newest roots adopted", () => ws.roots[0] === tmp.join("cwd"));
  answers[1]([pathToFileURL(tmp.join("stale")).href]);
  // Its handler runs in a microtask: past one macrotask turn it has run, adopting or not.
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(ws.roots, [tmp.join("cwd")]);
});

Deno.test("a file:// URL resolves like the path it names, inside or outside the workspace", async () => {
  await using tmp = await tempWorkspace({ "ws/src/a b.ts": "a", "secret": "s" });
  const ws = new Workspace({ cwd: tmp.join("ws") });
  assert.equal(
    await ws.resolveInside(pathToFileURL(tmp.join("ws", "src", "a b.ts")).href),
    tmp.join("ws", "src", "a b.ts"),
  );
  assert.equal(
    await ws.resolveInside(pathToFileURL(tmp.join("ws", "new.ts")).href),
    tmp.join("ws", "new.ts"),
  );
  await refused(ws, pathToFileURL(tmp.join("secret")).href);
  // A name that merely starts with "file:" is an ordinary relative path.
  assert.equal(await ws.resolveInside("file:notes"), tmp.join("ws", "file:notes"));
});

Deno.test("~ and ~/… are refused with a hint rather than taken as a folder named ~", async () => {
  await using tmp = await tempWorkspace({ "ws/~backup": "b" });
  const ws = new Workspace({ cwd: tmp.join("ws") });
  for (const path of ["~", "~/x.py", "~/"]) {
    await assert.rejects(ws.resolveInside(path), (error: unknown) => {
      assert.ok(error instanceof ToolError);
      assert.equal(error.code, "invalid_argument");
      assert.match(
        error.message,
        /"~" \(the home folder\) is not expanded; give a path relative to the workspace/,
      );
      return true;
    });
  }
  assert.equal(await ws.resolveInside("~backup"), tmp.join("ws", "~backup"));
});
