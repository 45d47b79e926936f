import assert from "node:assert/strict";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { textOf } from "../../_support/connect.ts";
import { spawnStdio, type StdioConnection } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const EDITS = 50;
/** Filler between anchors, so each in-place write takes long enough for another server to read mid-write. */
const FILLER = "x".repeat(120) + "\n";

/** Every server's anchors, spread over a file of about 1.5 MB. */
function fileWith(servers: number): string {
  const lines: string[] = [];
  for (let edit = 0; edit < EDITS; edit++) {
    for (let server = 0; server < servers; server++) {
      lines.push(`anchor ${server}-${edit} old\n`, FILLER.repeat(80));
    }
  }
  return lines.join("");
}

/** Edits this server's anchors through `name`; returns the anchors reported done and every failure text. */
async function editAnchors(
  server: StdioConnection,
  name: string,
  id: number,
): Promise<{ done: string[]; failures: string[] }> {
  const done: string[] = [];
  const failures: string[] = [];
  for (let edit = 0; edit < EDITS; edit++) {
    const anchor = `anchor ${id}-${edit}`;
    const result = await server.client.callTool({
      name: "edit_file",
      arguments: { path: name, edits: [{ old_text: `${anchor} old\n`, new_text: `${anchor} new\n` }] },
    }) as CallToolResult;
    if (result.isError) failures.push(textOf(result));
    else done.push(anchor);
  }
  return { done, failures };
}

async function runMatrix(servers: number): Promise<void> {
  await using ws = await tempWorkspace({ "a.txt": fileWith(servers) });
  const names = Array.from({ length: servers }, (_, i) => i === 0 ? "a.txt" : `link-${i}.txt`);
  for (const name of names.slice(1)) await Deno.link(ws.join("a.txt"), ws.join(name));
  const connections: StdioConnection[] = [];
  try {
    for (let i = 0; i < servers; i++) connections.push(await spawnStdio("edit", { cwd: ws.path }));
    const results = await Promise.all(connections.map((server, i) => editAnchors(server, names[i], i)));
    const text = await Deno.readTextFile(ws.join("a.txt"));
    const reported = results.flatMap((result) => result.done);
    const landed = reported.filter((anchor) => text.includes(`${anchor} new\n`));
    assert.equal(landed.length, reported.length, `${reported.length} reported, ${landed.length} landed`);
    assert.deepEqual(results.flatMap((result) => result.failures), [], "every edit waits for the others");
    assert.equal(reported.length, servers * EDITS);
    for (const name of names) {
      assert.equal((await Deno.stat(ws.join(name))).nlink, servers, `"${name}" is still a hard link`);
      assert.equal(await Deno.readTextFile(ws.join(name)), text);
    }
  } finally {
    for (const server of connections) await server[Symbol.asyncDispose]();
  }
}

Deno.test({
  name: "stdio: two edit servers editing one file through two hard-link names: every reported edit lands",
  ignore: isWindows,
  fn: () => runMatrix(2),
});

Deno.test({
  name: "stdio: three edit servers, three hard-link names, 50 edits each: all 150 reported and landed",
  ignore: isWindows,
  fn: () => runMatrix(3),
});
