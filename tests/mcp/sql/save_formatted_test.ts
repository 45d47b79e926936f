import assert from "node:assert/strict";
import { saveFormatted } from "../../../mcp/sql/save_formatted.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { FileLocks } from "../../../lib/fs/file_lock.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

async function listNames(dir: string): Promise<string[]> {
  const names = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

Deno.test("saveFormatted replaces the content and leaves no temp file", async () => {
  await using ws = await tempWorkspace({ "a.sql": "old\n" });
  await saveFormatted(ws.join("a.sql"), "new\n", {
    expected: bytes("old\n"),
    locks: new FileLocks(),
    roots: [ws.path],
  });
  assert.equal(await Deno.readTextFile(ws.join("a.sql")), "new\n");
  assert.deepEqual(await listNames(ws.path), ["a.sql"]);
});

Deno.test("saveFormatted refuses when the file changed meanwhile and writes nothing", async () => {
  await using ws = await tempWorkspace({ "a.sql": "edited by someone\n" });
  await assert.rejects(
    saveFormatted(ws.join("a.sql"), "new\n", {
      expected: bytes("old\n"),
      display: "a.sql",
      locks: new FileLocks(),
      roots: [ws.path],
    }),
    (error: Error & { code?: string }) =>
      error.code === "conflict" && /Cannot write "a\.sql": it changed on disk meanwhile/.test(error.message),
  );
  assert.equal(await Deno.readTextFile(ws.join("a.sql")), "edited by someone\n");
  assert.deepEqual(await listNames(ws.path), ["a.sql"]);
});

Deno.test("saveFormatted cleans its temp file up when the rename fails", async () => {
  await using ws = await tempWorkspace({ "target/": "", "target/keep": "x" });
  await assert.rejects(
    saveFormatted(ws.join("target"), "new\n", {
      display: "target",
      locks: new FileLocks(),
      roots: [ws.path],
    }),
    /Cannot write "target"/,
  );
  assert.deepEqual(await listNames(ws.path), ["target"]);
  assert.deepEqual(await listNames(ws.join("target")), ["keep"]);
});

Deno.test("saveFormatted compares the bytes it read, BOM included, and keeps the BOM", async () => {
  const original = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes("SELECT 1\n")]);
  await using ws = await tempWorkspace({ "bom.sql": original });
  await saveFormatted(ws.join("bom.sql"), "select 1\n", {
    expected: original,
    locks: new FileLocks(),
    roots: [ws.path],
  });
  assert.deepEqual(
    await Deno.readFile(ws.join("bom.sql")),
    new Uint8Array([0xef, 0xbb, 0xbf, ...bytes("select 1\n")]),
  );
});
