/**
 * The servers work together: the SHA-256 that fs_read prints is what edit_file/edit_write accept as
 * `expected_sha256`, and what edit reports as `sha256_after` is what fs_read prints next.
 */
import assert from "node:assert/strict";
import { connect, textOf } from "./_support/connect.ts";
import { tempWorkspace } from "./_support/workspace.ts";
import { Workspace } from "../lib/workspace/workspace.ts";
import { createServer as createFs } from "../mcp/fs/server.ts";
import { createServer as createEdit } from "../mcp/edit/server.ts";

const shaIn = (text: string, label: string) => text.match(new RegExp(`${label}:? ([0-9a-f]{64})`))?.[1];

Deno.test("fs_read's sha256 guards edit_file, and edit's sha256_after matches the next fs_read", async () => {
  await using ws = await tempWorkspace({ "src/a.ts": "export const a = “1”;\r\nexport const b = 2;\r\n" });
  const workspace = new Workspace({ cwd: ws.path });
  await using fs = await connect(createFs({ workspace }));
  await using edit = await connect(createEdit({ workspace }));

  const read = await fs.text("fs_read", { path: "src/a.ts" });
  const sha = shaIn(read, "sha256");
  assert.ok(sha, read);
  const edited = await edit.call("edit_file", {
    path: "src/a.ts",
    edits: [{ old_text: 'export const a = "1";', new_text: 'export const a = "one";' }],
    expected_sha256: sha,
  });
  assert.equal(edited.isError, undefined, textOf(edited));
  const after = shaIn(textOf(edited), "sha256_after");
  assert.equal(shaIn(await fs.text("fs_read", { path: "src/a.ts" }), "sha256"), after);

  // The unicode tier matched the straight quotes; the quotes are common to old and new, so the file's own
  // curly quotes and CRLF stay: only "1" became "one".
  const editedText = "export const a = “one”;\r\nexport const b = 2;\r\n";
  assert.equal(await Deno.readTextFile(ws.join("src/a.ts")), editedText);

  // The old hash is stale now: edit refuses and leaves the file alone.
  const stale = await edit.call("edit_write", { path: "src/a.ts", content: "x", expected_sha256: sha });
  assert.equal(stale.isError, true);
  assert.match(textOf(stale), /^Error \[conflict\]/);
  assert.equal(await Deno.readTextFile(ws.join("src/a.ts")), editedText);
});
