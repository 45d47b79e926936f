import assert from "node:assert/strict";
import { NoteStore } from "../../../mcp/notes/store.ts";
import { parseNote } from "../../../mcp/notes/front_matter.ts";
import { type TempWorkspace, tempWorkspace } from "../../_support/workspace.ts";

/** A store over `ws` whose clock starts at 2026-01-01 and ticks one minute per call. */
function storeIn(ws: TempWorkspace) {
  let tick = 0;
  return new NoteStore({
    locateRoot: () => Promise.resolve(ws.path),
    now: () => new Date(Date.UTC(2026, 0, 1) + 60_000 * tick++),
  });
}

const HAND_MADE = "---\ntitle: Original\nsummary: Kept.\ntags: [x]\ncreated: 2025-05-05\n" +
  "updated: 2025-05-06\nauthor: bob\nreviewers:\n  - ann\n---\n\nKept. Body.\n";

Deno.test("an appended body that starts like front matter is section text and leaves the header alone", async () => {
  await using ws = await tempWorkspace({ ".continue-notes/n.md": HAND_MADE });
  const store = storeIn(ws);
  const injected = "---\ntitle: Injected\nsummary: Evil.\ntags: [pwned]\ncreated: 1999-01-01\n" +
    "author: mallory\n---\nAppended text.";
  await store.write({ slug: "n", body: injected, mode: "append" });
  const text = await Deno.readTextFile(ws.join(".continue-notes/n.md"));
  const { front, body } = parseNote(text);
  assert.deepEqual(front, {
    title: "Original",
    summary: "Kept.",
    tags: ["x"],
    created: "2025-05-05",
    updated: "2026-01-01T00:00:00.000Z",
    extra: ["author: bob", "reviewers:", "  - ann"],
  });
  assert.equal(body, `Kept. Body.\n\n## 2026-01-01 00:00 UTC\n\n${injected}\n`);
  // Appending to a note that does not exist yet: the block is still text under the dated heading.
  await store.write({ slug: "fresh", body: "---\ntitle: Injected\n---\nText.", mode: "append" });
  const fresh = await store.read("fresh");
  assert.equal(fresh.title, "Fresh");
  assert.equal(fresh.body, "## 2026-01-01 00:01 UTC\n\n---\ntitle: Injected\n---\nText.\n");
});

Deno.test("a replace whose copied front matter leaves out a hand-added key keeps that key", async () => {
  await using ws = await tempWorkspace({ ".continue-notes/n.md": HAND_MADE });
  const store = storeIn(ws);
  await store.write({ slug: "n", body: "---\ntitle: New title\nlicense: MIT\n---\nNew body." });
  const { front, body } = parseNote(await Deno.readTextFile(ws.join(".continue-notes/n.md")));
  assert.equal(front.title, "New title");
  assert.deepEqual(front.extra, ["author: bob", "reviewers:", "  - ann", "license: MIT"]);
  assert.equal(body, "New body.\n");
  // A copied key wins over the file's, in its place; the verbatim copy of notes_read changes nothing else.
  await store.write({ slug: "n", body: "---\ntitle: New title\nauthor: carol\n---\nBody." });
  const again = parseNote(await Deno.readTextFile(ws.join(".continue-notes/n.md"))).front;
  assert.deepEqual(again.extra, ["author: carol", "reviewers:", "  - ann", "license: MIT"]);
  const copied = (await store.read("n")).text;
  await store.write({ slug: "n", body: copied });
  assert.deepEqual(
    parseNote(await Deno.readTextFile(ws.join(".continue-notes/n.md"))).front.extra,
    again.extra,
  );
});
