import assert from "node:assert/strict";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { textOf } from "../../_support/connect.ts";
import { spawnStdio, type StdioConnection } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const LINES = 60;

/** Edits lines `from`..`to-1` one call at a time; returns the lines whose edit reported success. */
async function editLines(server: StdioConnection, from: number, to: number): Promise<number[]> {
  const done: number[] = [];
  for (let line = from; line < to; line++) {
    const result = await server.client.callTool({
      name: "edit_file",
      arguments: {
        path: "shared.txt",
        edits: [{ old_text: `line ${line} old\n`, new_text: `line ${line} new\n` }],
      },
    }) as CallToolResult;
    if (!result.isError) done.push(line);
    else assert.match(textOf(result), /^Error \[(conflict|timeout)\]/);
  }
  return done;
}

Deno.test("stdio: two edit servers editing one file: every reported success is in the file", async () => {
  const original = Array.from({ length: LINES }, (_, i) => `line ${i} old\n`).join("");
  await using ws = await tempWorkspace({ "shared.txt": original });
  await using one = await spawnStdio("edit", { cwd: ws.path });
  await using two = await spawnStdio("edit", { cwd: ws.path });
  const [a, b] = await Promise.all([editLines(one, 0, LINES / 2), editLines(two, LINES / 2, LINES)]);
  const text = await Deno.readTextFile(ws.join("shared.txt"));
  const lost = [...a, ...b].filter((line) => !text.includes(`line ${line} new\n`));
  assert.deepEqual(lost, [], `${lost.length} of ${a.length + b.length} reported edits are missing`);
  assert.equal(a.length + b.length, LINES, "no edit should fail: each one waits for the other server");
});

Deno.test("stdio: two edit servers whose USER and TMPDIR differ still share one lock: no edit is lost", async () => {
  // MCP clients do not pass one environment: the TypeScript SDK's default spawn environment drops TMPDIR.
  const original = Array.from({ length: LINES }, (_, i) => `line ${i} old\n`).join("");
  await using ws = await tempWorkspace({ "shared.txt": original, "tmp-a/": "", "tmp-b/": "" });
  await using one = await spawnStdio("edit", {
    cwd: ws.path,
    env: { USER: "alice", TMPDIR: ws.join("tmp-a") },
  });
  await using two = await spawnStdio("edit", {
    cwd: ws.path,
    env: { USER: "bob", TMPDIR: ws.join("tmp-b") },
  });
  const [a, b] = await Promise.all([editLines(one, 0, LINES / 2), editLines(two, LINES / 2, LINES)]);
  const text = await Deno.readTextFile(ws.join("shared.txt"));
  const lost = [...a, ...b].filter((line) => !text.includes(`line ${line} new\n`));
  assert.deepEqual(lost, [], `${lost.length} of ${a.length + b.length} reported edits are missing`);
  assert.equal(a.length + b.length, LINES, "no edit should fail: each one waits for the other server");
});
