import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { encode } from "gpt-tokenizer";
import { connect, textOf } from "../../_support/connect.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { assertSnapshot } from "../../_support/snapshot.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { createServer } from "../../../mcp/notes/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { parseNote } from "../../../mcp/notes/front_matter.ts";
import { sampleNotes } from "./sample_notes.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

/** A notes server whose workspace is `cwd`; the home boundary keeps the walk inside the temp folder. */
function notesServer(cwd: string, homes: string[] = []) {
  let clock = Date.UTC(2026, 0, 1, 12);
  return createServer({ workspace: new Workspace({ cwd }), homes, now: () => new Date(clock += 3_600_000) });
}

const isNoteLine = (line: string) => !/^(# |\[)/.test(line) && !line.endsWith(":");

function errorOf(result: CallToolResult): string {
  assert.equal(result.isError, true, textOf(result));
  return textOf(result);
}

Deno.test("from a folder below the repository root, notes_list shows the root's notes, not the folder's own", async () => {
  // notes_list reads the workspace's own .continue-notes/ while it looks for the root: that guess is dropped.
  await using ws = await tempWorkspace({
    ".git/": "",
    ".continue-notes/kept.md": "---\nupdated: 2026-01-01T00:00:00.000Z\n---\nIn the root.\n",
    "src/.continue-notes/decoy.md": "---\nupdated: 2026-01-01T00:00:00.000Z\n---\nIn src.\n",
  });
  await using c = await connect(notesServer(ws.join("src")));
  const listing = await c.text("notes_list");
  assert.match(listing, /^kept\b/m);
  assert.doesNotMatch(listing, /decoy/);
});

Deno.test("write, list, read and delete round-trip through the protocol from a nested folder", async () => {
  await using ws = await tempWorkspace({ ".git/": "", "src/deep/": "" });
  await using c = await connect(notesServer(ws.join("src/deep")));
  assert.equal(await c.text("notes_list"), "No notes yet in .continue-notes/; notes_write saves one");
  const written = await c.call("notes_write", {
    title: "Build commands",
    body: "Run `deno task ok` before every commit. It also lints.",
    tags: ["build"],
  });
  assert.equal(written.structuredContent, undefined);
  assert.match(
    textOf(written),
    /^Created note "build-commands" \(\.continue-notes\/build-commands\.md, \d+ bytes, updated 2026-01-01T13:00:00\.000Z\)$/,
  );
  await Deno.stat(ws.join(".continue-notes/build-commands.md"));
  await c.call("notes_write", {
    slug: "gotchas",
    title: "Gotchas on Windows",
    body: "Paths use backslashes.",
  });
  await c.call("notes_write", { slug: "layout", body: "Code in src/.", tags: ["docs", "layout"] });
  assert.equal(
    await c.text("notes_list"),
    [
      "3 notes in .continue-notes/, newest first:",
      "# 2026-01-01",
      "layout — Code in src/. (docs)",
      "gotchas — Gotchas on Windows — Paths use backslashes.",
      "build-commands — Run deno task ok before every commit.",
    ].join("\n"),
  );
  assert.equal(
    await c.text("notes_list", { query: "src" }),
    '1 of 3 notes match "src", best first:\nlayout — Code in src/. (docs, 2026-01-01)',
  );
  const read = await c.text("notes_read", { slug: "build-commands" });
  assert.match(
    read,
    /^=== build-commands \(\.continue-notes\/build-commands\.md; updated \S+Z\)\n---\ntitle: Build/,
  );
  assert.match(read, /\n---\n\nRun `deno task ok` before every commit\. It also lints\.$/);
  assert.equal(
    await c.text("notes_delete", { slug: "gotchas" }),
    'Deleted note "gotchas" (.continue-notes/gotchas.md): Gotchas on Windows',
  );
  assert.match(await c.text("notes_list"), /^2 notes in/);
});

Deno.test("notes_read takes a list (or a JSON or comma list) and marks the missing ones", async () => {
  await using ws = await tempWorkspace({ ".git/": "" });
  await using c = await connect(notesServer(ws.path));
  await c.call("notes_write", { slug: "a", body: "Alpha." });
  await c.call("notes_write", { slug: "b", body: "Beta." });
  for (const slug of [["a", "b", "zz"], '["a","b","zz"]', "a, b zz"]) {
    const text = await c.text("notes_read", { slug });
    assert.match(
      text,
      /^=== a \(.*\n[^]*Alpha\.\n\n=== b \(.*\n[^]*Beta\.\n\n=== zz: Cannot read note "zz": no such note/,
    );
  }
  assert.match(
    errorOf(await c.call("notes_read", { slug: ["x", "y"] })),
    /^Error \[not_found\]: Cannot read notes "x", "y"/,
  );
  assert.match(
    errorOf(await c.call("notes_read", { slug: [] })),
    /^Error \[invalid_argument\]: Cannot read notes: give a slug/,
  );
  const many = Array.from({ length: 21 }, (_, i) => `n${i}`);
  assert.match(
    errorOf(await c.call("notes_read", { slug: many })),
    /^Error \[invalid_argument\]: Cannot read 21 notes/,
  );
});

Deno.test("each error code reads as an error: invalid slug, not_found, conflict, too_large, schema", async () => {
  await using ws = await tempWorkspace({ ".git/": "" });
  await using c = await connect(notesServer(ws.path));
  assert.match(
    errorOf(await c.call("notes_write", { slug: "../escape", body: "x" })),
    /^Error \[invalid_argument\]: Cannot use slug "\.\.\/escape": it is not a slug/,
  );
  assert.match(
    errorOf(await c.call("notes_read", { slug: "nope" })),
    /^Error \[not_found\]: Cannot read note "nope"/,
  );
  assert.match(errorOf(await c.call("notes_delete", { slug: "nope" })), /^Error \[not_found\]/);
  await c.call("notes_write", { slug: "n", body: "v1" });
  assert.match(
    errorOf(await c.call("notes_write", { slug: "n", body: "v2", expected_updated: "2000-01-01T00:00:00Z" })),
    /^Error \[conflict\]: Cannot write note "n": it changed since you read it/,
  );
  assert.match(
    errorOf(await c.call("notes_write", { slug: "n", body: "x".repeat(70_000) })),
    /^Error \[too_large\]: Cannot write note "n": it would be [\d,]+ bytes, over the 65,536-byte limit/,
  );
  const schema = await c.call("notes_write", { slug: "n" });
  assert.match(
    errorOf(schema),
    /^Error \[invalid_argument\]: Cannot call notes_write: "body": missing \(expected string\)/,
  );
  assert.match(
    errorOf(await c.call("notes_write", { body: "no title, no slug" })),
    /^Error \[invalid_argument\]: Cannot write a note without a slug/,
  );
  assert.deepEqual((await Array.fromAsync(Deno.readDir(ws.join(".continue-notes")))).map((e) => e.name), [
    "n.md",
  ]);
});

Deno.test("a home-folder workspace refuses to keep notes and writes nothing", async () => {
  await using ws = await tempWorkspace({ "home/": "" });
  await using c = await connect(notesServer(ws.join("home"), [ws.join("home")]));
  assert.match(
    errorOf(await c.call("notes_write", { slug: "a", body: "x" })),
    /^Error \[unavailable\]: .*home folder/,
  );
  assert.match(errorOf(await c.call("notes_list")), /^Error \[unavailable\]/);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(ws.join("home"))), []);
});

Deno.test("notes follow the client's MCP roots to their repository", async () => {
  await using ws = await tempWorkspace({ "repo/.git/": "", "repo/pkg/": "", "elsewhere/": "" });
  await using c = await connect(notesServer(ws.join("elsewhere")), {
    roots: [pathToFileURL(ws.join("repo/pkg")).href],
  });
  await c.call("notes_write", { slug: "a", body: "x" });
  await Deno.stat(ws.join("repo/.continue-notes/a.md"));
});

Deno.test("query ranks the relevant note first; tag filters; paging past 100 lines", async () => {
  await using ws = await tempWorkspace({ ".git/": "" });
  await using c = await connect(notesServer(ws.path));
  await c.call("notes_write", {
    slug: "release",
    body: "Tag, then publish. Mention the changelog.",
    tags: ["ops"],
  });
  await c.call("notes_write", { slug: "changelog-format", body: "Keep a changelog style." });
  await c.call("notes_write", { slug: "lint", body: "Run deno lint.", tags: ["ci"] });
  const ranked = (await c.text("notes_list", { query: "changelog" })).split("\n");
  assert.equal(ranked[0], '2 of 3 notes match "changelog", best first:');
  assert.match(ranked[1], /^changelog-format /);
  assert.match(ranked[2], /^release /);
  await c.call("notes_write", { slug: "spaced", body: "Tagged.", tags: ["Two Words"] });
  assert.match(await c.text("notes_list", { tag: "two words" }), /^1 of 4 notes tagged "two-words"/);
  await c.call("notes_delete", { slug: "spaced" });
  assert.equal(
    await c.text("notes_list", { tag: "CI" }),
    '1 of 3 notes tagged "ci", newest first:\n# 2026-01-01\nlint — Run deno lint. (ci)',
  );
  assert.match(await c.text("notes_list", { query: "zebra" }), /^No notes match "zebra" \(of 3\)/);
  for (let i = 0; i < 120; i++) {
    await Deno.writeTextFile(ws.join(`.continue-notes/bulk-${String(i).padStart(3, "0")}.md`), `Note ${i}.`);
  }
  const first = (await c.text("notes_list")).split("\n");
  assert.equal(first.filter(isNoteLine).length, 100);
  assert.equal(first.at(-1), "[1-100 of 123 shown; pass offset=100 for more]");
  const second = (await c.text("notes_list", { offset: 100 })).split("\n");
  assert.equal(second.filter(isNoteLine).length, 23);
  assert.equal(second.at(-1), "release — Tag, then publish. (ops)");
  assert.match(
    await c.text("notes_list", { offset: 500 }),
    /\[offset 500 is past the last of 123; use a smaller offset\]$/,
  );
});

Deno.test("tools/list matches the snapshot and carries the right annotations", async () => {
  await using ws = await tempWorkspace();
  await using c = await connect(notesServer(ws.path));
  const { tools } = await c.client.listTools();
  assert.deepEqual(tools.map((t) => [t.name, t.annotations?.readOnlyHint, t.annotations?.destructiveHint]), [
    ["notes_list", true, false],
    ["notes_read", true, false],
    ["notes_write", false, true],
    ["notes_delete", false, true],
  ]);
  await assertSnapshot(new URL("../../../mcp/notes/tools.json", import.meta.url), tools);
});

Deno.test("stdio: two server processes writing different notes at once leave both intact", async () => {
  await using ws = await tempWorkspace({ ".git/": "", "sub/": "" });
  await using one = await spawnStdio("notes", { cwd: ws.path });
  await using two = await spawnStdio("notes", { cwd: ws.join("sub") });
  const { tools } = await one.client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ["notes_list", "notes_read", "notes_write", "notes_delete"]);
  const writes = Array.from({ length: 10 }, (_, i) =>
    (i % 2 ? one : two).client.callTool({
      name: "notes_write",
      arguments: { slug: `note-${i}`, body: `Body ${i}. `.repeat(500), mode: i % 4 ? "replace" : "append" },
    }));
  const results = await Promise.all(writes) as CallToolResult[];
  for (const result of results) assert.equal(result.isError, undefined, textOf(result));
  const list = textOf(await one.client.callTool({ name: "notes_list", arguments: {} }) as CallToolResult);
  assert.match(list, /^10 notes in/);
  for (let i = 0; i < 10; i++) {
    const { body } = parseNote(await Deno.readTextFile(ws.join(`.continue-notes/note-${i}.md`)));
    assert.equal(body.split(`Body ${i}.`).length - 1, 500);
  }
  assert.deepEqual(
    (await Array.fromAsync(Deno.readDir(ws.join(".continue-notes")))).filter((e) => !e.name.endsWith(".md")),
    [],
  );
});

Deno.test("the index of 50 notes stays compact: one line each, day headers, summaries, under 1,000 tokens", async () => {
  await using ws = await tempWorkspace({ ".git/": "" });
  let clock = Date.UTC(2026, 0, 1);
  const now = () => new Date(clock += 7 * 3_600_000);
  await using c = await connect(createServer({ workspace: new Workspace({ cwd: ws.path }), now }));
  for (const note of sampleNotes()) {
    assert.equal((await c.call("notes_write", { ...note })).isError, undefined);
  }
  const list = await c.text("notes_list");
  const lines = list.split("\n");
  assert.equal(lines.filter((line) => /^[a-z]+-[a-z]+( — | \()/.test(line)).length, 50);
  assert.ok(lines.filter((line) => / — /.test(line)).length >= 45, "most lines keep a summary");
  assert.equal(lines.filter((line) => /^# \d{4}-\d\d-\d\d$/.test(line)).length, 15);
  assert.match(list, /\nconfig-debugging — When config misbehaves, set LOG=debug… \(security\)\n/);
  const tokens = encode(list).length;
  assert.ok(tokens <= 1_000, `notes_list of 50 notes costs ${tokens} tokens`);
});

Deno.test(
  "files that are not notes are named in a footer, not silently missing",
  { ignore: isWindows },
  async () => {
    await using outside = await tempWorkspace({ "secret.md": "secret" });
    await using ws = await tempWorkspace({
      ".git/": "",
      ".continue-notes/Not A Slug.md": "x",
      ".continue-notes/linked.md": { symlink: outside.join("secret.md") },
      ".continue-notes/real.md": "# Real\n\nA note.",
    });
    await using c = await connect(notesServer(ws.path));
    const list = (await c.text("notes_list")).split("\n");
    assert.equal(list[0], "1 note in .continue-notes/, newest first:");
    assert.match(list[2], /^real — A note\.$/);
    assert.equal(
      list[3],
      '[not listed: "Not A Slug.md", "linked.md": names that are not slugs (rename like "my-note.md") or not regular files]',
    );
    assert.match(
      errorOf(await c.call("notes_read", { slug: "linked" })),
      /^Error \[permission_denied\]: .*symlink/,
    );
  },
);

Deno.test(
  "a notes folder linking outside the repository is refused by notes_list, a file in its place too",
  { ignore: isWindows },
  async () => {
    await using outside = await tempWorkspace({ "notes/secret.md": "# Secret\n\nDo not list." });
    await using ws = await tempWorkspace({
      ".git/": "",
      ".continue-notes": { symlink: outside.join("notes") },
    });
    await using c = await connect(notesServer(ws.path));
    assert.match(errorOf(await c.call("notes_list")), /^Error \[permission_denied\]: .*links outside/);
    await using plain = await tempWorkspace({ ".continue-notes": "not a folder" });
    await using d = await connect(notesServer(plain.path));
    assert.match(errorOf(await d.call("notes_list")), /^Error \[invalid_argument\]: .*not a folder/);
  },
);
