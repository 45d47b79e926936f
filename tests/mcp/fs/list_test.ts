import assert from "node:assert/strict";
import { textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { fsClient } from "./_fixture.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

const REPO = {
  ".git/HEAD": "ref: refs/heads/main\n",
  ".git/config": "",
  ".gitignore": "build/\n*.log\n",
  ".env": "SECRET=1\n",
  "README.md": "# hi\n",
  "src/main.ts": "console.log(1);\n",
  "src/lib/a.ts": "a",
  "src/lib/deep/b.ts": "b",
  "build/out.js": "x",
  "debug.log": "log",
  "node_modules/left-pad/index.js": "x",
  "node_modules/left-pad/package.json": "{}",
  "node_modules/zod/index.js": "x",
  "empty/": "",
};

Deno.test("fs_list shows a gitignore-aware tree to depth 2 with sizes, counts and a total", async () => {
  await using ws = await tempWorkspace(REPO);
  await using c = await fsClient(ws.path);
  assert.equal(
    await c.text("fs_list", {}),
    [
      "./",
      "  empty/  (empty)",
      "  node_modules/  (2 entries, collapsed)",
      "  src/",
      "    lib/  (2 files)",
      "    main.ts  16B",
      "  README.md  5B",
      "[2 folders and 2 files shown of 4 files in all]",
    ].join("\n"),
  );
});

Deno.test("fs_list all=true shows ignored files and hidden=true dotfiles, .git collapsed", async () => {
  await using ws = await tempWorkspace(REPO);
  await using c = await fsClient(ws.path);
  const text = await c.text("fs_list", { all: true, hidden: true, depth: 1 });
  assert.equal(
    text,
    [
      "./",
      "  .git/  (2 entries, collapsed)",
      "  build/  (1 file)",
      "  empty/  (empty)",
      "  node_modules/  (2 entries, collapsed)",
      "  src/  (3 files)",
      "  .env  9B",
      "  .gitignore  13B",
      "  debug.log  3B",
      "  README.md  5B",
      "[2 folders and 4 files shown of 8 files in all]",
    ].join("\n"),
  );
});

Deno.test("fs_list goes as deep as asked and lists a subfolder", async () => {
  await using ws = await tempWorkspace(REPO);
  await using c = await fsClient(ws.path);
  assert.equal(
    await c.text("fs_list", { path: "src", depth: 5 }),
    [
      "src/",
      "  lib/",
      "    deep/",
      "      b.ts  1B",
      "    a.ts  1B",
      "  main.ts  16B",
      "[2 folders and 3 files shown of 3 files in all]",
    ]
      .join("\n"),
  );
});

Deno.test("fs_list sorts names naturally and cuts a folder at limit entries, saying how many more", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 30; i++) files[`many/f${i}.txt`] = "x";
  await using ws = await tempWorkspace(files);
  await using c = await fsClient(ws.path);
  const lines = (await c.text("fs_list", { limit: 5 })).split("\n");
  assert.deepEqual(lines, [
    "./",
    "  many/",
    "    f0.txt  1B",
    "    f1.txt  1B",
    "    f2.txt  1B",
    "    f3.txt  1B",
    "    f4.txt  1B",
    "    (+25 more)",
    "[1 folder and 5 files shown of 30 files in all]",
  ]);
});

Deno.test(
  "fs_list shows symlinks with their target and does not follow them",
  { ignore: isWindows },
  async () => {
    await using outside = await tempWorkspace({ "x.txt": "x" });
    await using ws = await tempWorkspace({ "a.txt": "a", "out": { symlink: outside.path } });
    await using c = await fsClient(ws.path);
    assert.equal(
      await c.text("fs_list", {}),
      ["./", "  a.txt  1B", `  out -> ${outside.path}`, "[0 folders and 1 file shown of 1 file in all]"].join(
        "\n",
      ),
    );
  },
);

Deno.test("fs_list says when everything is ignored", async () => {
  await using ws = await tempWorkspace({ ".git/HEAD": "", ".gitignore": "*\n", "a.txt": "a" });
  await using c = await fsClient(ws.path);
  assert.match(await c.text("fs_list", {}), /ignored files are hidden: all=true shows them\]$/);
});

Deno.test("fs_list errors: a file, a missing folder with suggestions, an escape", async () => {
  await using ws = await tempWorkspace({ "src/a.ts": "a" });
  await using c = await fsClient(ws.path);
  assert.equal(
    await c.text("fs_list", { path: "src/a.ts" }),
    'Error [invalid_argument]: Cannot list "src/a.ts": it is a file; read it with fs_read',
  );
  assert.equal(
    await c.text("fs_list", { path: "scr" }),
    'Error [not_found]: Cannot list "scr": no such file or folder; did you mean "src"?',
  );
  const escape = await c.call("fs_list", { path: "../" });
  assert.deepEqual(escape._meta, { code: "outside_workspace" });
  assert.match(textOf(escape), /^Error \[outside_workspace\]: Cannot use "\.\.\/"/);
});

Deno.test("fs_list stops reading ripgrep at the scan cap and says the counts are lower bounds", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 12; i++) files[`d/f${i}.txt`] = "x";
  await using ws = await tempWorkspace(files);
  await using c = await fsClient(ws.path, { listScanFiles: 5 });
  const text = await c.text("fs_list", { depth: 1 });
  assert.equal(
    text,
    "./\n  d/  (5 files)\n[1 folder and 0 files shown of 5+ files in all; scan stopped at 5 files: counts are lower bounds]",
  );
});

Deno.test("fs_list honours a .gitignore outside a git repository, like search-mcp", async () => {
  await using ws = await tempWorkspace({ ".gitignore": "build/\n", "src/a.ts": "a", "build/out.js": "x" });
  await using c = await fsClient(ws.path);
  const tree = await c.text("fs_list", {});
  assert.match(tree, /src\//);
  assert.doesNotMatch(tree, /build/);
  assert.match(await c.text("fs_list", { all: true }), /build\//);
});

Deno.test({
  name: "fs_list shows FIFOs with their type and never opens them",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "a.txt": "x\n", "sub/b.txt": "y\n" });
    const made = await new Deno.Command("mkfifo", { args: [ws.join("pipe"), ws.join("sub/p2")] }).output();
    assert.ok(made.success, "mkfifo failed");
    await using c = await fsClient(ws.path);
    // Opening a FIFO without a writer would hang here; the call returning at all proves it was not opened.
    assert.equal(
      await c.text("fs_list", {}),
      [
        "./",
        "  sub/",
        "    b.txt  2B",
        "    p2  (FIFO)",
        "  a.txt  2B",
        "  pipe  (FIFO)",
        "[1 folder and 2 files shown of 2 files in all]",
      ].join("\n"),
    );
  },
});
