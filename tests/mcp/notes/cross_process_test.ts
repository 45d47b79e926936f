import assert from "node:assert/strict";
import { textOf } from "../../_support/connect.ts";
import { spawnStdio, type StdioConnection } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { parseNote } from "../../../mcp/notes/front_matter.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";

function write(server: StdioConnection, args: Record<string, unknown>): Promise<CallToolResult> {
  return server.client.callTool({ name: "notes_write", arguments: { slug: "shared", ...args } }) as Promise<
    CallToolResult
  >;
}

Deno.test("stdio: two notes servers appending to one note: every reported append is in the note", async () => {
  await using ws = await tempWorkspace({ ".git/": "" });
  await using one = await spawnStdio("notes", { cwd: ws.path });
  await using two = await spawnStdio("notes", { cwd: ws.path });
  const append = async (server: StdioConnection, name: string) => {
    const done: string[] = [];
    for (let i = 0; i < 40; i++) {
      const result = await write(server, { body: `entry-${name}-${i}.`, mode: "append" });
      if (!result.isError) done.push(`entry-${name}-${i}.`);
      else assert.match(textOf(result), /^Error \[timeout\]/);
    }
    return done;
  };
  const done = (await Promise.all([append(one, "a"), append(two, "b")])).flat();
  const text = await Deno.readTextFile(ws.join(".continue-notes/shared.md"));
  const lost = done.filter((entry) => !text.includes(entry));
  assert.deepEqual(lost, [], `${lost.length} of ${done.length} reported appends are missing`);
  assert.equal(done.length, 80);
});

Deno.test("stdio: two notes servers rewriting one note with expected_updated never lose a reported write", async () => {
  await using ws = await tempWorkspace({ ".git/": "" });
  await using one = await spawnStdio("notes", { cwd: ws.path });
  await using two = await spawnStdio("notes", { cwd: ws.path });
  assert.equal((await write(one, { body: "start." })).isError, undefined);
  const file = ws.join(".continue-notes/shared.md");
  // Read, add a line, write back with the `updated` that was read: a stale read must be refused.
  const rewrite = async (server: StdioConnection, name: string) => {
    const done: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { front, body } = parseNote(await Deno.readTextFile(file));
      const line = `line-${name}-${i}.`;
      const result = await write(server, {
        body: `${body.trimEnd()}\n${line}\n`,
        expected_updated: front.updated,
      });
      if (!result.isError) done.push(line);
      else assert.match(textOf(result), /^Error \[conflict\]: Cannot write note "shared": it changed since/);
    }
    return done;
  };
  const done = (await Promise.all([rewrite(one, "a"), rewrite(two, "b")])).flat();
  const text = await Deno.readTextFile(file);
  const lost = done.filter((line) => !text.includes(line));
  assert.deepEqual(lost, [], `${lost.length} of ${done.length} reported writes are missing`);
  assert.ok(done.length > 0);
});
