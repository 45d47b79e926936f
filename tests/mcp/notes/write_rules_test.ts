/** notes_write and notes_delete follow the toolkit's one set of write rules: read-only refused, links kept. */
import assert from "node:assert/strict";
import { textOf } from "../../_support/connect.ts";
import { spawnStdio, type StdioConnection } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";

const NOTE = "---\ntitle: Keep\nupdated: 2026-01-01T00:00:00.000Z\n---\nDo not touch.\n";

function call(server: StdioConnection, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return server.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
}

Deno.test({
  name: "stdio: notes_write (replace, append) and notes_delete refuse a read-only note (permission_denied)",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ ".git/": "", ".continue-notes/keep.md": NOTE });
    const file = ws.join(".continue-notes", "keep.md");
    await Deno.chmod(file, 0o444);
    await using notes = await spawnStdio("notes", { cwd: ws.path });
    for (const mode of ["replace", "append"]) {
      const result = await call(notes, "notes_write", { slug: "keep", body: "Changed.", mode });
      assert.equal(result.isError, true, `${mode}: ${textOf(result)}`);
      assert.match(
        textOf(result),
        /^Error \[permission_denied\]: Cannot write note "keep": .*read-only \(mode 444\)/,
      );
    }
    const deleted = await call(notes, "notes_delete", { slug: "keep" });
    assert.equal(deleted.isError, true, textOf(deleted));
    assert.match(
      textOf(deleted),
      /^Error \[permission_denied\]: Cannot delete note "keep": .*read-only \(mode 444\)/,
    );
    assert.equal(await Deno.readTextFile(file), NOTE);
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o444);
  },
});

Deno.test({
  name: "stdio: notes_write keeps a hard-linked note's link: both names get the new text",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ ".git/": "", ".continue-notes/keep.md": NOTE });
    const file = ws.join(".continue-notes", "keep.md");
    await Deno.link(file, ws.join("linked.md"));
    await using notes = await spawnStdio("notes", { cwd: ws.path });
    const result = await call(notes, "notes_write", { slug: "keep", body: "Appended.", mode: "append" });
    assert.equal(result.isError, undefined, textOf(result));
    assert.equal((await Deno.stat(file)).nlink, 2);
    const text = await Deno.readTextFile(file);
    assert.match(text, /Appended\./);
    assert.equal(await Deno.readTextFile(ws.join("linked.md")), text);
  },
});
