import assert from "node:assert/strict";
import { connect } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { createServer } from "../../../mcp/notes/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { parseNote } from "../../../mcp/notes/front_matter.ts";
import { readHeader, stripReadHeader } from "../../../mcp/notes/read_header.ts";

function notesServer(cwd: string) {
  let clock = Date.UTC(2026, 0, 1, 12);
  return createServer({
    workspace: new Workspace({ cwd }),
    homes: [],
    now: () => new Date(clock += 3_600_000),
  });
}

Deno.test("notes_read output written back verbatim keeps one front matter and no header", async () => {
  await using ws = await tempWorkspace({ ".git/": "" });
  await using c = await connect(notesServer(ws.path));
  await c.call("notes_write", { slug: "n", title: "Kept", body: "Old first sentence. More.", tags: ["a"] });
  const read = await c.text("notes_read", { slug: "n" });
  const edited = read.replace("Old first sentence. More.", "New first sentence. More.");
  assert.match(await c.text("notes_write", { slug: "n", body: edited }), /^Replaced note "n"/);
  const text = await Deno.readTextFile(ws.join(".continue-notes/n.md"));
  assert.equal(text.match(/^---$/gm)?.length, 2, text);
  assert.doesNotMatch(text, /===/);
  const { front, body } = parseNote(text);
  assert.equal(body, "New first sentence. More.\n");
  assert.equal(front.title, "Kept");
  assert.deepEqual(front.tags, ["a"]);
  // The summary the server derived and the caller left alone follows the new body.
  assert.equal(front.summary, "New first sentence.");
  assert.equal(front.created, "2026-01-01T13:00:00.000Z");
  assert.equal(front.updated, "2026-01-01T14:00:00.000Z");
});

Deno.test("a copied front matter the caller edited wins over the note; arguments win over both", async () => {
  await using ws = await tempWorkspace({ ".git/": "" });
  await using c = await connect(notesServer(ws.path));
  await c.call("notes_write", { slug: "n", body: "Body." });
  const read = await c.text("notes_read", { slug: "n" });
  const edited = read.replace("summary: Body.", "summary: Hand-written.\nauthor: bob");
  await c.call("notes_write", { slug: "n", body: edited, title: "Argument title" });
  const { front, body } = parseNote(await Deno.readTextFile(ws.join(".continue-notes/n.md")));
  assert.equal(front.summary, "Hand-written.");
  assert.equal(front.title, "Argument title");
  assert.deepEqual(front.extra, ["author: bob"]);
  assert.equal(body, "Body.\n");
});

Deno.test("stripReadHeader removes only the exact header notes_read prints", () => {
  const header = readHeader("a-b", "2026-01-01T00:00:00.000Z");
  assert.equal(header, "=== a-b (.continue-notes/a-b.md; updated 2026-01-01T00:00:00.000Z)");
  assert.equal(stripReadHeader(`${header}\n---\nx`), "---\nx");
  assert.equal(stripReadHeader(`\n${header}\r\nbody`), "body");
  for (const kept of ["=== a-b (.continue-notes/other.md; updated x)\nbody", "text\n" + header]) {
    assert.equal(stripReadHeader(kept), kept);
  }
});
