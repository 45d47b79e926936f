/** Bytes that are not UTF-8 never reach the client as lone surrogates, in any text of a result. */
import assert from "node:assert/strict";
import { textOf } from "../../_support/connect.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { bytesOf, editFixture } from "./fixture.ts";

/** Every text block is well-formed UTF-16 (Python clients fail to encode a lone surrogate). */
function assertWellFormed(result: CallToolResult): void {
  for (const block of result.content) {
    if (block.type !== "text") continue;
    assert.ok(block.text.isWellFormed(), `lone surrogate in: ${JSON.stringify(block.text)}`);
    // As JSON on the wire: no `\udce9` escape of a raw surrogate (a quoted `\\udce9` in a message is text).
    assert.doesNotMatch(JSON.stringify(block.text), /(?<!\\)\\ud[89a-f][0-9a-f]{2}/i);
  }
}

Deno.test("a Latin-1 byte next to an edit: hunks show it as \\xE9, the file keeps it byte for byte", async () => {
  await using f = await editFixture({ "l.txt": bytesOf("caf", [0xe9], "\nx\n") });
  const result = await f.call("edit_file", { path: "l.txt", edits: [{ old_text: "x", new_text: "y" }] });
  assert.equal(result.isError, undefined);
  assertWellFormed(result);
  assert.match(textOf(result), /\n {2}1 \| caf\\xE9\n- 2 \| x\n\+ 2 \| y\n/);
  assert.deepEqual(await f.bytes("l.txt"), bytesOf("caf", [0xe9], "\ny\n"));
});

Deno.test("the byte on the edited line itself, in hunks and in a dry-run diff", async () => {
  const before = bytesOf("caf", [0xe9], " au lait\nend\n");
  await using f = await editFixture({ "l.txt": before });
  const dry = await f.call("edit_file", {
    path: "l.txt",
    edits: [{ old_text: "au lait", new_text: "au chocolat" }],
    dry_run: true,
  });
  assertWellFormed(dry);
  assert.match(textOf(dry), /\n-caf\\xE9 au lait\n\+caf\\xE9 au chocolat\n/);
  assert.deepEqual(await f.bytes("l.txt"), before);
  const real = await f.call("edit_file", {
    path: "l.txt",
    edits: [{ old_text: "au lait", new_text: "au chocolat" }],
  });
  assertWellFormed(real);
  assert.deepEqual(await f.bytes("l.txt"), bytesOf("caf", [0xe9], " au chocolat\nend\n"));
});

Deno.test("errors quoting the file escape the bytes too: no_match's closest block, ambiguous candidates", async () => {
  const before = bytesOf("caf", [0xe9], " x = 1\ncaf", [0xe9], " x = 1\n");
  await using f = await editFixture({ "l.txt": before });
  const noMatch = await f.call("edit_file", {
    path: "l.txt",
    edits: [{ old_text: "caf x = 1\nmore", new_text: "y" }],
  });
  assert.equal(noMatch.isError, true);
  assertWellFormed(noMatch);
  assert.match(textOf(noMatch), /\n {4}1 \| caf\\xE9 x = 1\n/);
  const ambiguous = await f.call("edit_file", {
    path: "l.txt",
    edits: [{ old_text: "x = 1", new_text: "y" }],
  });
  assert.equal(ambiguous.isError, true);
  assertWellFormed(ambiguous);
  assert.deepEqual(await f.bytes("l.txt"), before);
});
