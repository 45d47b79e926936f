import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { requireRipgrep } from "../../../lib/ripgrep/locate.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { createServer } from "../../../mcp/search/server.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { connectSearch, GIT } from "./_connect.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

Deno.test("search_grep shows a heading per file, line:text, and a summary line", async () => {
  await using ws = await tempWorkspace({
    ...GIT,
    "src/a.ts": "const foo = 1;\nconst bar = 2;\nfoo(bar);\n",
    "src/b.ts": "nothing here\n",
    "lib/c.ts": "export { foo };\n",
  });
  await using c = await connectSearch(ws.path);
  const result = await c.call("search_grep", { pattern: "foo" });
  assert.equal(result.isError, undefined);
  assert.equal(
    textOf(result),
    "lib/c.ts\n1:export { foo };\n\nsrc/a.ts\n1:const foo = 1;\n3:foo(bar);\n\n3 matching lines in 2 files",
  );
});

Deno.test("search_grep: fixed strings, whole words and the case modes", async () => {
  await using ws = await tempWorkspace({ ...GIT, "a.txt": "a.b\naxb\nFoo\nfoo\nfood\n" });
  await using c = await connectSearch(ws.path);
  const lines = async (args: Record<string, unknown>) =>
    (await c.text("search_grep", args)).split("\n").filter((l) => /^\d+:/.test(l));
  assert.deepEqual(await lines({ pattern: "a.b" }), ["1:a.b", "2:axb"]);
  assert.deepEqual(await lines({ pattern: "a.b", fixed: true }), ["1:a.b"]);
  assert.deepEqual(await lines({ pattern: "foo", word: true }), ["3:Foo", "4:foo"]);
  // Smart case: all lowercase is insensitive, an uppercase letter makes it sensitive.
  assert.deepEqual(await lines({ pattern: "Foo" }), ["3:Foo"]);
  assert.deepEqual(await lines({ pattern: "foo", case: "sensitive" }), ["4:foo", "5:food"]);
  assert.deepEqual(await lines({ pattern: "FOO", case: "insensitive" }), ["3:Foo", "4:foo", "5:food"]);
});

Deno.test("search_grep: multiline matches are numbered line by line; PCRE2 look-around", async () => {
  await using ws = await tempWorkspace({
    ...GIT,
    "a.py": "def f():\n    return 1\nx = price_usd\ny = price_eur\n",
  });
  await using c = await connectSearch(ws.path);
  const multi = await c.text("search_grep", { pattern: "def f\\(\\):\\n\\s+return", multiline: true });
  assert.equal(multi, "a.py\n1:def f():\n2:    return 1\n\n1 match in 1 file");
  const look = await c.text("search_grep", { pattern: "price_(?!usd)\\w+", pcre2: true });
  assert.match(look, /^a\.py\n4:y = price_eur\n\n1 matching line in 1 file$/);
  const refused = await c.call("search_grep", { pattern: "price_(?!usd)\\w+" });
  assert.equal(refused.isError, true);
  assert.match(textOf(refused), /^Error \[invalid_argument\]: Cannot search for .*look-around.*pcre2: true/s);
});

Deno.test("search_grep: context lines use - and groups are separated by --", async () => {
  const text = Array.from({ length: 20 }, (_, i) => (i === 2 || i === 14 ? `hit ${i + 1}` : `line ${i + 1}`));
  await using ws = await tempWorkspace({ ...GIT, "a.txt": text.join("\n") + "\n" });
  await using c = await connectSearch(ws.path);
  assert.equal(
    await c.text("search_grep", { pattern: "hit", context: 1 }),
    "a.txt\n2-line 2\n3:hit 3\n4-line 4\n--\n14-line 14\n15:hit 15\n16-line 16\n\n2 matching lines in 1 file",
  );
});

Deno.test("search_grep: globs, negated globs and file types", async () => {
  await using ws = await tempWorkspace({
    ...GIT,
    "src/a.ts": "x\n",
    "src/b.py": "x\n",
    "dist/c.ts": "x\n",
  });
  await using c = await connectSearch(ws.path);
  const files = async (args: Record<string, unknown>) =>
    (await c.text("search_grep", { pattern: "x", mode: "files", ...args })).split("\n\n")[0].split("\n");
  assert.deepEqual(await files({ glob: "*.ts" }), ["dist/c.ts", "src/a.ts"]);
  assert.deepEqual(await files({ glob: ["*.ts", "!dist/**"] }), ["src/a.ts"]);
  assert.deepEqual(await files({ type: "py" }), ["src/b.py"]);
  assert.deepEqual(await files({ type: "py, ts", path: "src" }), ["src/a.ts", "src/b.py"]);
  assert.deepEqual(await files({ path: "src" }), ["src/a.ts", "src/b.py"]);
  const bad = await c.call("search_grep", { pattern: "x", type: "nosuchtype" });
  assert.match(textOf(bad), /^Error \[invalid_argument\]: .*unrecognized file type: nosuchtype/);
});

Deno.test("search_grep respects .gitignore, and hidden/no_ignore opt out", async () => {
  await using ws = await tempWorkspace({
    ...GIT,
    ".gitignore": "build/\n",
    "src/a.ts": "needle\n",
    "build/out.js": "needle\n",
    ".config/x.yml": "needle\n",
  });
  await using c = await connectSearch(ws.path);
  const files = async (args: Record<string, unknown>) =>
    (await c.text("search_grep", { pattern: "needle", mode: "files", ...args })).split("\n\n")[0].split("\n");
  assert.deepEqual(await files({}), ["src/a.ts"]);
  assert.deepEqual(await files({ no_ignore: true }), ["build/out.js", "src/a.ts"]);
  assert.deepEqual(await files({ hidden: true }), [".config/x.yml", "src/a.ts"]);
  // Even with hidden, the repository's own database is never searched.
  assert.match(
    await c.text("search_grep", { pattern: "refs/heads", hidden: true, no_ignore: true }),
    /^No matches/,
  );
  // A later glob wins in ripgrep: a catch-all glob must not bring `.git/` back.
  assert.match(
    await c.text("search_grep", { pattern: "refs/heads", hidden: true, glob: "**" }),
    /^No matches/,
  );
});

Deno.test("search_grep honours .gitignore outside a git repository too", async () => {
  await using ws = await tempWorkspace({
    ".gitignore": "build/\n",
    "a.ts": "needle\n",
    "build/b.js": "needle\n",
  });
  await using c = await connectSearch(ws.path);
  assert.equal(await c.text("search_grep", { pattern: "needle", mode: "files" }), "a.ts\n\n1 file");
});

Deno.test("search_grep pages with offset: every match exactly once, in a stable order", async () => {
  const files: Record<string, string> = { ...GIT };
  for (let f = 0; f < 25; f++) {
    files[`d${f % 3}/f${String(f).padStart(2, "0")}.txt`] = Array.from(
      { length: 10 },
      (_, i) => `m ${f}.${i}\n`,
    )
      .join("");
  }
  await using ws = await tempWorkspace(files);
  await using c = await connectSearch(ws.path);
  const seen: string[] = [];
  const summaries: string[] = [];
  for (let offset = 0; offset < 250; offset += 100) {
    const text = await c.text("search_grep", { pattern: "^m", limit: 100, offset });
    const parts = text.split("\n");
    summaries.push(parts.at(-1)!);
    let file = "";
    for (const line of parts.slice(0, -1)) {
      if (/^\d+:/.test(line)) seen.push(`${file}:${line}`);
      else if (line) file = line;
    }
  }
  assert.equal(seen.length, 250);
  assert.equal(new Set(seen).size, 250);
  assert.deepEqual(summaries, [
    "250 matching lines in 25 files (showing 1-100; offset=100 for more)",
    "250 matching lines in 25 files (showing 101-200; offset=200 for more)",
    "250 matching lines in 25 files (showing 201-250)",
  ]);
  assert.match(
    await c.text("search_grep", { pattern: "^m", offset: 400 }),
    /\(offset 400 is past the end\)$/,
  );
});

Deno.test("search_grep counts on past the page only as far as is cheap: a huge total is N+", async () => {
  await using ws = await tempWorkspace({ ...GIT, "big.txt": "hit\n".repeat(5_000) });
  await using c = await connectSearch(ws.path);
  const text = await c.text("search_grep", { pattern: "hit", limit: 10 });
  assert.equal(text.split("\n").filter((l) => /^\d+:hit$/.test(l)).length, 10);
  assert.match(
    text.split("\n").at(-1)!,
    /^[\d,]+\+ matching lines in 1\+ file \(showing 1-10; offset=10 for more\)$/,
  );
  assert.doesNotMatch(text, /5,000/);
});

Deno.test("search_grep files and count modes", async () => {
  await using ws = await tempWorkspace({ ...GIT, "a.txt": "x\nx\nx\n", "b.txt": "x\n", "c.txt": "y\n" });
  await using c = await connectSearch(ws.path);
  assert.equal(await c.text("search_grep", { pattern: "x", mode: "files" }), "a.txt\nb.txt\n\n2 files");
  assert.equal(
    await c.text("search_grep", { pattern: "x", mode: "count" }),
    "a.txt:3\nb.txt:1\n\n4 matching lines in 2 files",
  );
  assert.equal(
    await c.text("search_grep", { pattern: "x", mode: "files", limit: 1, offset: 1 }),
    "b.txt\n\n2 files (showing 2)",
  );
});

Deno.test("search_grep cuts long lines around the match", async () => {
  const minified = "var a=1;".repeat(2_000) + "NEEDLE()" + ";b=2".repeat(1_000);
  await using ws = await tempWorkspace({ ...GIT, "min.js": minified + "\n" });
  await using c = await connectSearch(ws.path);
  const text = await c.text("search_grep", { pattern: "NEEDLE" });
  const line = text.split("\n")[1];
  assert.match(line, /^1:…\(\+[\d,]+ chars\)(var a=1;)*.*NEEDLE\(\).*…\(\+[\d,]+ chars\)$/);
  assert.ok(line.length < 300, `line has ${line.length} chars`);
});

Deno.test("search_grep: no match is a short line, not an error", async () => {
  await using ws = await tempWorkspace({ ...GIT, "src/a.ts": "x\n", "src/b.ts": "y\n" });
  await using c = await connectSearch(ws.path);
  const result = await c.call("search_grep", { pattern: "zzz", path: "src" });
  assert.equal(result.isError, undefined);
  assert.equal(textOf(result), "No matches for /zzz/ in src (2 files searched)");
});

Deno.test("search_grep: an invalid regex is invalid_argument with ripgrep's explanation", async () => {
  await using ws = await tempWorkspace({ ...GIT, "a.txt": "x\n" });
  await using c = await connectSearch(ws.path);
  const result = await c.call("search_grep", { pattern: "a(" });
  assert.equal(result.isError, true);
  assert.deepEqual(result._meta, { code: "invalid_argument" });
  assert.match(
    textOf(result),
    /^Error \[invalid_argument\]: Cannot search for \/a\(\/: regex parse error:.*unclosed group/s,
  );
});

Deno.test(
  "search_grep: paths outside the workspace and missing paths are refused",
  { ignore: isWindows },
  async () => {
    await using ws = await tempWorkspace({ ...GIT, "a.txt": "x\n", "link": { symlink: "/etc" } });
    await using c = await connectSearch(ws.path);
    assert.match(
      textOf(await c.call("search_grep", { pattern: "x", path: "../" })),
      /^Error \[outside_workspace\]/,
    );
    assert.match(
      textOf(await c.call("search_grep", { pattern: "x", path: "link" })),
      /^Error \[outside_workspace\]/,
    );
    assert.match(
      textOf(await c.call("search_grep", { pattern: "x", path: "nope" })),
      /^Error \[not_found\]: Cannot search "nope": no such file or folder/,
    );
    assert.match(
      textOf(await c.call("search_grep", { path: "." })),
      /^Error \[invalid_argument\]: .*"pattern"/,
    );
  },
);

Deno.test("search_grep: a pattern starting with - is a pattern, not a flag", async () => {
  await using ws = await tempWorkspace({ ...GIT, "a.txt": "--help me\n" });
  await using c = await connectSearch(ws.path);
  assert.match(await c.text("search_grep", { pattern: "--help" }), /^a\.txt\n1:--help me\n/);
});

Deno.test("search_grep: the timeout stops ripgrep and returns what it found with a note", async () => {
  const files: Record<string, string> = { ...GIT };
  for (let i = 0; i < 400; i++) files[`d${i % 20}/f${i}.txt`] = "needle\n".repeat(50);
  await using ws = await tempWorkspace(files);
  await using c = await connectSearch(ws.path, { timeoutMs: 1 });
  const result = await c.call("search_grep", { pattern: "needle", mode: "count" });
  assert.equal(result.isError, undefined);
  assert.match(
    textOf(result),
    /\nStopped after 1 ms \(timeout\): results are partial; narrow path, glob or type$/,
  );
});

Deno.test("search_grep ends a page early when its text would flood the model, and pages on from there", async () => {
  const line = (i: number) => `hit ${String(i).padStart(4, "0")} ${"x".repeat(230)}\n`;
  await using ws = await tempWorkspace({
    ...GIT,
    "wide.txt": Array.from({ length: 400 }, (_, i) => line(i)).join(""),
  });
  await using c = await connectSearch(ws.path);
  const first = await c.text("search_grep", { pattern: "^hit", limit: 400 });
  const summary = first.split("\n").at(-1)!;
  const match = summary.match(/^400 matching lines in 1 file \(showing 1-(\d+); offset=(\d+) for more\)$/);
  assert.ok(match, summary);
  const shown = Number(match[1]);
  assert.ok(shown < 400 && first.length < 50_000, `${shown} lines, ${first.length} chars`);
  const second = await c.text("search_grep", { pattern: "^hit", limit: 400, offset: shown });
  assert.match(second.split("\n")[1], new RegExp(`^${shown + 1}:hit ${String(shown).padStart(4, "0")} `));
});

Deno.test("search_grep: a newline without multiline is refused with the argument to set", async () => {
  await using ws = await tempWorkspace({ ...GIT, "a.txt": "a\nb\n" });
  await using c = await connectSearch(ws.path);
  const text = textOf(await c.call("search_grep", { pattern: "a\\nb" }));
  assert.match(
    text,
    /^Error \[invalid_argument\]: .*not allowed in a regex\nSet multiline: true to match across lines$/s,
  );
  assert.doesNotMatch(text, /--multiline/);
});

Deno.test("search_grep searches a single file given as path", async () => {
  await using ws = await tempWorkspace({ ...GIT, "src/a.ts": "x = 1\n", "src/b.ts": "x = 2\n" });
  await using c = await connectSearch(ws.path);
  assert.equal(
    await c.text("search_grep", { pattern: "x", path: "src/b.ts" }),
    "src/b.ts\n1:x = 2\n\n1 matching line in 1 file",
  );
});

Deno.test("search_grep in an MCP_ALLOW_DIRS folder outside the root shows absolute paths", async () => {
  await using ws = await tempWorkspace({ "root/a.txt": "x\n", "extra/b.txt": "needle\n" });
  await using c = await connect(createServer({
    workspace: new Workspace({ cwd: ws.join("root"), allowDirsEnv: ws.join("extra") }),
    ripgrep: requireRipgrep,
    timeoutMs: 30_000,
  }));
  const text = await c.text("search_grep", { pattern: "needle", path: ws.join("extra") });
  assert.equal(
    text,
    `${ws.join("extra", "b.txt").replaceAll("\\", "/")}\n1:needle\n\n1 matching line in 1 file`,
  );
});

Deno.test("search_grep: CRLF lines lose their \\r; odd file names and Latin-1 text come through", async () => {
  await using ws = await tempWorkspace({
    ...GIT,
    "win.txt": "first hit\r\nsecond\r\n",
    "dir with space/ünï 名.txt": "hit\n",
    "latin1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x68, 0x69, 0x74, 0x0a]),
  });
  await using c = await connectSearch(ws.path);
  assert.equal(
    await c.text("search_grep", { pattern: "hit", context: 1 }),
    "dir with space/ünï 名.txt\n1:hit\n\nlatin1.txt\n1:caf\ufffd hit\n\nwin.txt\n1:first hit\n2-second\n\n" +
      "3 matching lines in 3 files",
  );
});

Deno.test("search_grep and search_glob refuse a NUL byte as invalid_argument", async () => {
  await using ws = await tempWorkspace({ ...GIT, "a.txt": "x\n" });
  await using c = await connectSearch(ws.path);
  for (
    const [tool, args] of [
      ["search_grep", { pattern: "a\0b" }],
      ["search_grep", { pattern: "x", glob: ["*.txt", "a\0"] }],
      ["search_glob", { pattern: "\0" }],
    ] as const
  ) {
    const result = await c.call(tool, args);
    assert.match(
      textOf(result),
      /^Error \[invalid_argument\]: Cannot call search_\w+ with ".*": it contains a NUL byte$/,
    );
  }
});

Deno.test({
  name: "search_grep refuses a FIFO at once instead of blocking ripgrep until the timeout",
  ignore: isWindows,
  fn: async () => {
    await using ws = await tempWorkspace({ ...GIT, "a.txt": "hi\n" });
    assert.ok((await new Deno.Command("mkfifo", { args: [ws.join("pipe")] }).output()).success);
    await using c = await connectSearch(ws.path);
    const result = await c.call("search_grep", { pattern: "hi", path: "pipe" });
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      /^Error \[invalid_argument\]: Cannot search "pipe": not a regular file or folder/,
    );
  },
});
