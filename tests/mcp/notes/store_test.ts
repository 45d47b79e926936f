import assert from "node:assert/strict";
import { MAX_NOTE_BYTES, NoteStore } from "../../../mcp/notes/store.ts";
import { parseNote } from "../../../mcp/notes/front_matter.ts";
import { ToolError } from "../../../lib/mcp/errors.ts";
import { type TempWorkspace, tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

/** A store over `ws` whose clock starts at 2026-01-01 and ticks one minute per call. */
function storeIn(ws: TempWorkspace, start = Date.UTC(2026, 0, 1)) {
  let tick = 0;
  return new NoteStore({
    locateRoot: () => Promise.resolve(ws.path),
    now: () => new Date(start + 60_000 * tick++),
  });
}

const isCode = (code: string) => (error: unknown) => error instanceof ToolError && error.code === code;

Deno.test("write creates the folder and a note with maintained front matter; read returns it", async () => {
  await using ws = await tempWorkspace();
  const store = storeIn(ws);
  const result = await store.write({
    title: "Build commands",
    body: "Run `deno task ok` before a commit. It lints too.",
    tags: ["Build", "CI"],
  });
  assert.deepEqual(result, {
    slug: "build-commands",
    path: ".continue-notes/build-commands.md",
    action: "created",
    updated: "2026-01-01T00:00:00.000Z",
    size: result.size,
  });
  const text = await Deno.readTextFile(ws.join(".continue-notes/build-commands.md"));
  assert.equal(
    text,
    "---\ntitle: Build commands\nsummary: Run deno task ok before a commit.\ntags: [build, ci]\n" +
      "created: 2026-01-01T00:00:00.000Z\nupdated: 2026-01-01T00:00:00.000Z\n---\n\n" +
      "Run `deno task ok` before a commit. It lints too.\n",
  );
  assert.equal(result.size, new TextEncoder().encode(text).length);
  const note = await store.read("build-commands");
  assert.equal(note.text, text);
  assert.equal(note.version, "2026-01-01T00:00:00.000Z");
  assert.equal(
    (await Deno.stat(ws.join(".continue-notes/build-commands.md"))).mtime?.toISOString(),
    note.version,
  );
});

Deno.test("replace keeps created, title, tags and unknown keys; derives a fresh summary", async () => {
  await using ws = await tempWorkspace({
    ".continue-notes/a.md": "---\ntitle: Kept title\nsummary: Old.\ntags: [x]\ncreated: 2025-05-05\n" +
      "updated: 2025-05-06\nauthor: bob\n---\nold body\n",
  });
  const store = storeIn(ws);
  const result = await store.write({ slug: "a", body: "New body. More." });
  assert.equal(result.action, "replaced");
  const front = parseNote(await Deno.readTextFile(ws.join(".continue-notes/a.md"))).front;
  assert.deepEqual(front, {
    title: "Kept title",
    summary: "New body.",
    tags: ["x"],
    created: "2025-05-05",
    updated: "2026-01-01T00:00:00.000Z",
    extra: ["author: bob"],
  });
});

Deno.test("append adds a dated section, merges tags and keeps the summary", async () => {
  await using ws = await tempWorkspace();
  const store = storeIn(ws);
  await store.write({ slug: "log", body: "# Log\n\nFirst entry.", tags: ["a"] });
  const result = await store.write({ slug: "log", body: "Second entry.", mode: "append", tags: ["b"] });
  assert.equal(result.action, "appended");
  const note = await store.read("log");
  assert.equal(note.body, "# Log\n\nFirst entry.\n\n## 2026-01-01 00:01 UTC\n\nSecond entry.\n");
  assert.deepEqual(note.tags, ["a", "b"]);
  assert.equal(note.title, "Log");
  assert.equal(note.summary, "First entry.");
});

Deno.test("append to a missing note creates it with the dated section and a title from the slug", async () => {
  await using ws = await tempWorkspace();
  const store = storeIn(ws);
  assert.equal(
    (await store.write({ slug: "deploy-log", body: "Shipped.", mode: "append" })).action,
    "created",
  );
  const note = await store.read("deploy-log");
  assert.equal(note.title, "Deploy log");
  assert.equal(note.body, "## 2026-01-01 00:00 UTC\n\nShipped.\n");
  assert.equal(note.summary, "Shipped.");
});

Deno.test("a body carrying a copied front matter block is taken apart, not nested", async () => {
  await using ws = await tempWorkspace();
  const store = storeIn(ws);
  await store.write({ slug: "n", body: "Text.", title: "T" });
  const copied = (await store.read("n")).text.replace(/Text\.\n$/, "Edited text.\n");
  await store.write({ slug: "n", body: copied });
  const text = await Deno.readTextFile(ws.join(".continue-notes/n.md"));
  assert.equal(text.match(/^---$/gm)?.length, 2);
  assert.equal(parseNote(text).body, "Edited text.\n");
  assert.equal(parseNote(text).front.created, "2026-01-01T00:00:00.000Z");
});

Deno.test("a body that merely opens with a --- rule is kept as the caller wrote it", async () => {
  await using ws = await tempWorkspace();
  const store = storeIn(ws);
  await store.write({ slug: "a", body: "---\nIntro para.\n---\nMore text" });
  const text = await Deno.readTextFile(ws.join(".continue-notes/a.md"));
  assert.equal(parseNote(text).body, "---\nIntro para.\n---\nMore text\n");
  assert.deepEqual(parseNote(text).front.extra, []);
});

Deno.test("expected_updated: matching writes, stale or deleted is a conflict, junk is invalid", async () => {
  await using ws = await tempWorkspace();
  const store = storeIn(ws);
  const first = await store.write({ slug: "n", body: "v1" });
  const second = await store.write({ slug: "n", body: "v2", expectedUpdated: first.updated });
  await assert.rejects(
    store.write({ slug: "n", body: "v3", expectedUpdated: first.updated }),
    isCode("conflict"),
  );
  assert.equal((await store.read("n")).body, "v2\n");
  await assert.rejects(
    store.write({ slug: "n", body: "x", expectedUpdated: "yesterday" }),
    isCode("invalid_argument"),
  );
  await store.delete("n");
  await assert.rejects(
    store.write({ slug: "n", body: "v4", expectedUpdated: second.updated }),
    (error) => isCode("conflict")(error) && /deleted/.test((error as Error).message),
  );
});

Deno.test("expected_updated notices a hand edit that left the front matter alone", async () => {
  await using ws = await tempWorkspace();
  const store = storeIn(ws);
  const written = await store.write({ slug: "n", body: "agent text" });
  const path = ws.join(".continue-notes/n.md");
  await Deno.writeTextFile(path, (await Deno.readTextFile(path)).replace("agent text", "person text"));
  await Deno.utime(path, new Date(Date.UTC(2026, 0, 2)), new Date(Date.UTC(2026, 0, 2)));
  const note = await store.read("n");
  assert.equal(note.version, "2026-01-02T00:00:00.000Z");
  await assert.rejects(
    store.write({ slug: "n", body: "x", expectedUpdated: written.updated }),
    isCode("conflict"),
  );
  await store.write({ slug: "n", body: "merged", expectedUpdated: note.version });
});

Deno.test("updated always moves forward, even when the clock does not", async () => {
  await using ws = await tempWorkspace();
  const store = new NoteStore({
    locateRoot: () => Promise.resolve(ws.path),
    now: () => new Date(Date.UTC(2026, 0, 1)),
  });
  const first = await store.write({ slug: "n", body: "a" });
  const second = await store.write({ slug: "n", body: "b" });
  assert.ok(Date.parse(second.updated) > Date.parse(first.updated));
});

Deno.test("a note over 64 KiB is too_large and the old note stays as it was", async () => {
  await using ws = await tempWorkspace();
  const store = storeIn(ws);
  await store.write({ slug: "n", body: "small" });
  const before = await Deno.readTextFile(ws.join(".continue-notes/n.md"));
  await assert.rejects(
    store.write({ slug: "n", body: "x".repeat(MAX_NOTE_BYTES) }),
    (error) => isCode("too_large")(error) && /65,536-byte limit/.test((error as Error).message),
  );
  assert.equal(await Deno.readTextFile(ws.join(".continue-notes/n.md")), before);
  await store.write({ slug: "n", body: "y".repeat(40_000) });
  const big = await Deno.readTextFile(ws.join(".continue-notes/n.md"));
  await assert.rejects(
    store.write({ slug: "n", body: "z".repeat(30_000), mode: "append" }),
    isCode("too_large"),
  );
  assert.equal(await Deno.readTextFile(ws.join(".continue-notes/n.md")), big);
  assert.deepEqual((await Array.fromAsync(Deno.readDir(ws.join(".continue-notes")))).map((e) => e.name), [
    "n.md",
  ]);
});

Deno.test("a hand-broken note is listed and survives writes of other notes byte for byte", async () => {
  const broken = '---\ntitle: "oops\nthis: [is: not yaml\n\n# Real heading\n\nSome text.\n';
  await using ws = await tempWorkspace({
    ".continue-notes/broken.md": broken,
    ".continue-notes/bare.md": "No front matter, no heading. Just text.",
    ".continue-notes/Not A Slug.md": "x",
    ".continue-notes/.hidden.md": "x",
    ".continue-notes/readme.txt": "x",
  });
  const store = storeIn(ws);
  await store.write({ slug: "other", body: "x" });
  assert.equal(await Deno.readTextFile(ws.join(".continue-notes/broken.md")), broken);
  const listing = await store.list();
  const bySlug = Object.fromEntries(listing.notes.map((n) => [n.slug, n]));
  assert.deepEqual(Object.keys(bySlug).sort(), ["bare", "broken", "other"]);
  assert.equal(bySlug.broken.title, '"oops');
  assert.equal(bySlug.bare.title, "Bare");
  assert.equal(bySlug.bare.summary, "No front matter, no heading.");
  assert.deepEqual(listing.skipped, ["Not A Slug.md"]);
});

Deno.test("delete removes the file; a missing note is not_found with a suggestion", async () => {
  await using ws = await tempWorkspace();
  const store = storeIn(ws);
  await store.write({ slug: "gotchas", body: "x" });
  assert.deepEqual(await store.delete("gotchas"), {
    slug: "gotchas",
    title: "Gotchas",
    path: ".continue-notes/gotchas.md",
  });
  await store.write({ slug: "gotchas-2", body: "x" });
  await assert.rejects(
    store.delete("gotchas"),
    (error) => isCode("not_found")(error) && /did you mean "gotchas-2"/.test((error as Error).message),
  );
  await assert.rejects(store.read("../gotchas"), isCode("invalid_argument"));
});

Deno.test(
  "symlinked notes and a notes folder linking outside the repo are refused",
  { ignore: isWindows },
  async () => {
    await using outside = await tempWorkspace({ "secret.md": "secret", "notes/": "" });
    await using ws = await tempWorkspace({
      "repo/.continue-notes/leak.md": { symlink: outside.join("secret.md") },
      "other/.continue-notes": { symlink: outside.join("notes") },
    });
    const store = new NoteStore({ locateRoot: () => Promise.resolve(ws.join("repo")) });
    await assert.rejects(store.read("leak"), isCode("permission_denied"));
    await assert.rejects(store.write({ slug: "leak", body: "x" }), isCode("permission_denied"));
    assert.equal(await Deno.readTextFile(outside.join("secret.md")), "secret");
    assert.deepEqual((await store.list()).notes, []);
    const linked = new NoteStore({ locateRoot: () => Promise.resolve(ws.join("other")) });
    await assert.rejects(linked.write({ slug: "a", body: "x" }), isCode("permission_denied"));
    assert.deepEqual(await Array.fromAsync(Deno.readDir(outside.join("notes"))), []);
  },
);

Deno.test("two stores writing different notes at the same moment keep both", async () => {
  await using ws = await tempWorkspace();
  const [a, b] = [storeIn(ws), storeIn(ws)];
  const writes = Array.from(
    { length: 20 },
    (_, i) => (i % 2 ? a : b).write({ slug: `n${i}`, body: `body ${i}` }),
  );
  await Promise.all(writes);
  const listing = await a.list();
  assert.equal(listing.notes.length, 20);
  for (const note of listing.notes) assert.equal(note.body, `body ${note.slug.slice(1)}\n`);
});

Deno.test("a note that is not valid UTF-8 is listed and readable but never appended to", async () => {
  const bytes = new Uint8Array([...new TextEncoder().encode("Latin-1 caf"), 0xe9, 0x0a]);
  await using ws = await tempWorkspace({ ".continue-notes/latin.md": bytes });
  const store = storeIn(ws);
  const note = await store.read("latin");
  assert.equal(note.lossy, true);
  assert.equal(note.text, "Latin-1 caf\uFFFD\n");
  await assert.rejects(store.write({ slug: "latin", body: "x", mode: "append" }), isCode("invalid_argument"));
  assert.deepEqual(await Deno.readFile(ws.join(".continue-notes/latin.md")), bytes);
  await store.write({ slug: "latin", body: "café" });
  assert.equal((await store.read("latin")).lossy, false);
});

Deno.test("a typo'd future date in a hand edit does not become permanent", async () => {
  await using ws = await tempWorkspace({ ".continue-notes/n.md": "---\nupdated: 2099-01-01\n---\nx\n" });
  const store = storeIn(ws);
  assert.equal((await store.write({ slug: "n", body: "y" })).updated, "2026-01-01T00:00:00.000Z");
});

Deno.test("tags are capped at 20 per note", async () => {
  await using ws = await tempWorkspace();
  const store = storeIn(ws);
  await store.write({ slug: "n", body: "x", tags: Array.from({ length: 30 }, (_, i) => `t${i}`) });
  assert.equal((await store.read("n")).tags.length, 20);
});

Deno.test("a refused first write leaves no notes folder behind", async () => {
  await using ws = await tempWorkspace();
  const store = storeIn(ws);
  await assert.rejects(store.write({ slug: "n", body: "x".repeat(MAX_NOTE_BYTES) }), isCode("too_large"));
  await assert.rejects(
    store.write({ slug: "n", body: "x", expectedUpdated: "2026-01-01" }),
    isCode("conflict"),
  );
  await assert.rejects(Deno.lstat(ws.join(".continue-notes")), Deno.errors.NotFound);
});

Deno.test("a dangling or looping .continue-notes link is not_found naming the link and its target", {
  ignore: isWindows,
}, async () => {
  await using ws = await tempWorkspace({ "dangling/": "", "looping/": "" });
  await Deno.symlink(ws.join("dangling/gone"), ws.join("dangling/.continue-notes"));
  await Deno.symlink(".continue-notes", ws.join("looping/.continue-notes"));
  const dangling = new NoteStore({ locateRoot: () => Promise.resolve(ws.join("dangling")) });
  const named = (target: string, why: string) => (error: unknown) =>
    isCode("not_found")(error) &&
    (error as Error).message.includes(`/.continue-notes": it is a symlink to "${target}", which ${why}`);
  await assert.rejects(dangling.list(), named(ws.join("dangling/gone"), "does not exist"));
  await assert.rejects(dangling.write({ slug: "a", body: "x" }), named(ws.join("dangling/gone"), "does not"));
  const looping = new NoteStore({ locateRoot: () => Promise.resolve(ws.join("looping")) });
  await assert.rejects(looping.read("a"), named(".continue-notes", "loops back to itself"));
});

Deno.test("a body with a NUL character is refused for replace and append; the note stays as it was", async () => {
  await using ws = await tempWorkspace();
  const store = storeIn(ws);
  await store.write({ slug: "kept", body: "Original." });
  const before = await Deno.readTextFile(ws.join(".continue-notes", "kept.md"));
  for (const mode of ["replace", "append"] as const) {
    await assert.rejects(store.write({ slug: "kept", body: "a\0b", mode }), isCode("invalid_argument"));
  }
  await assert.rejects(store.write({ slug: "fresh", body: "\0" }), /contains a NUL character/);
  assert.equal(await Deno.readTextFile(ws.join(".continue-notes", "kept.md")), before);
  await assert.rejects(Deno.lstat(ws.join(".continue-notes", "fresh.md")), Deno.errors.NotFound);
});
