import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { createServer } from "../../../mcp/notes/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";

function notesServer(cwd: string) {
  return createServer({
    workspace: new Workspace({ cwd }),
    homes: [],
    now: () => new Date(Date.UTC(2026, 0, 1)),
  });
}

Deno.test("every tool takes foo.md for the slug foo", async () => {
  await using ws = await tempWorkspace({ ".git/": "" });
  await using c = await connect(notesServer(ws.path));
  assert.match(await c.text("notes_write", { slug: "foo.md", body: "Foo." }), /^Created note "foo" /);
  assert.match(await c.text("notes_write", { slug: "foo.md", body: "More.", mode: "append" }), /^Appended/);
  assert.match(await c.text("notes_read", { slug: "foo.md" }), /^=== foo \(/);
  assert.equal(
    await c.text("notes_delete", { slug: "foo.md" }),
    'Deleted note "foo" (.continue-notes/foo.md): Foo',
  );
  assert.deepEqual(await Array.fromAsync(Deno.readDir(ws.join(".continue-notes"))), []);
});

Deno.test("a title in another script gets a slug, and the result names it", async () => {
  await using ws = await tempWorkspace({ ".git/": "" });
  await using c = await connect(notesServer(ws.path));
  const russian = await c.call("notes_write", { title: "Заметки о сборке", body: "Собирать так." });
  assert.match(textOf(russian), /^Created note "zametki-o-sborke" \(\.continue-notes\/zametki-o-sborke\.md,/);
  const chinese = textOf(await c.call("notes_write", { title: "构建命令", body: "运行测试。" }));
  const slug = /^Created note "(note-[0-9a-f]{6})"/.exec(chinese)?.[1];
  assert.ok(slug, chinese);
  assert.match(
    await c.text("notes_write", { title: "构建命令", body: "再次。" }),
    new RegExp(`^Replaced note "${slug}"`),
  );
  assert.match(await c.text("notes_read", { slug }), /title: 构建命令/);
});
