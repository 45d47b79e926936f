import assert from "node:assert/strict";
import { requireRipgrep } from "../../../lib/ripgrep/locate.ts";
import { grep, type GrepRequest } from "../../../mcp/search/grep.ts";
import { renderGrep } from "../../../mcp/search/render.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { GIT } from "./_connect.ts";

/** A tree whose matches sit in nested folders, close together (shared context) and in a binary file. */
function fixture(): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = { ...GIT };
  for (let f = 0; f < 9; f++) {
    const lines = Array.from({ length: 30 }, (_, i) => (i % (3 + f) === 0 ? `hit ${f}.${i}` : `text ${i}`));
    files[`${["a", "a/b", "a-b", "z"][f % 4]}/f${f}.txt`] = lines.join("\n") + "\n";
  }
  files["a/bin.dat"] = new Uint8Array([...new TextEncoder().encode("hit\n"), 0, 1, 2]);
  return files;
}

async function pages(
  root: string,
  request: Omit<GrepRequest, "offset">,
  bufferUnits: number,
): Promise<string[]> {
  const rg = await requireRipgrep();
  const out: string[] = [];
  for (let offset = 0; offset < 200; offset += request.limit) {
    const outcome = await grep(rg, { ...request, offset }, { cwd: root, timeoutMs: 30_000, bufferUnits });
    out.push(
      renderGrep(outcome, {
        pattern: request.pattern,
        where: ".",
        mode: request.mode ?? "lines",
        offset,
        context: request.context ?? 0,
        timeoutMs: 30_000,
      }),
    );
    if (!outcome.more) break;
  }
  return out;
}

for (
  const [name, request] of [
    ["lines with context", { pattern: "^hit", paths: ["."], limit: 7, context: 2 }],
    ["lines", { pattern: "^hit", paths: ["."], limit: 11 }],
    ["count", { pattern: "^hit", paths: ["."], limit: 2, mode: "count" }],
    ["files", { pattern: "^hit", paths: ["."], limit: 3, mode: "files" }],
  ] as Array<[string, Omit<GrepRequest, "offset">]>
) {
  Deno.test(`buffered and sorted-run paging give the same pages: ${name}`, async () => {
    await using ws = await tempWorkspace(fixture());
    const buffered = await pages(ws.path, request, 2_000);
    const streamed = await pages(ws.path, request, 0);
    assert.ok(buffered.length > 2, `${buffered.length} pages`);
    assert.deepEqual(buffered, streamed);
  });
}

Deno.test("the page text budget cuts buffered and streamed pages at the same match", async () => {
  await using ws = await tempWorkspace(fixture());
  const rg = await requireRipgrep();
  const request: GrepRequest = { pattern: "^hit", paths: ["."], limit: 50, context: 3 };
  const options = { cwd: ws.path, timeoutMs: 30_000, pageChars: 600 };
  const buffered = await grep(rg, request, { ...options, bufferUnits: 2_000 });
  const streamed = await grep(rg, request, { ...options, bufferUnits: 0 });
  assert.ok(buffered.shown < 50 && buffered.more);
  assert.deepEqual({ ...buffered, complete: true }, { ...streamed, complete: true });
});

Deno.test("paging non-ASCII file names returns each match once, in UTF-8 byte order on every page", async () => {
  // UTF-16 order puts "😀" (a surrogate pair, 0xD83D…) before "ａ" (0xFF41); UTF-8 bytes the other way round.
  const names = ["b.txt", "é.txt", "ａ.txt", "😀.txt", "ｄ/x.txt", "😀d/x.txt", "z/😀.txt", "z/ａ.txt"];
  await using ws = await tempWorkspace({ ...GIT, ...Object.fromEntries(names.map((n) => [n, "hit\n"])) });
  const rg = await requireRipgrep();
  const run = async (offset: number, limit: number, bufferUnits: number) =>
    (await grep(rg, { pattern: "hit", paths: ["."], mode: "files", offset, limit }, {
      cwd: ws.path,
      timeoutMs: 30_000,
      bufferUnits,
    })).files.map((file) => file.path);
  const whole = await run(0, 100, 0);
  const bytes = (s: string) =>
    [...new TextEncoder().encode(s)].map((b) => b.toString(16).padStart(2, "0")).join("");
  assert.deepEqual(whole, [...whole].sort((a, b) => (bytes(a) < bytes(b) ? -1 : 1)));
  assert.deepEqual([...whole].sort(), [...names].sort());
  for (const bufferUnits of [0, 3, 2_000]) {
    const paged: string[] = [];
    for (let offset = 0; offset < names.length; offset += 2) paged.push(...await run(offset, 2, bufferUnits));
    assert.deepEqual(paged, whole, `bufferUnits ${bufferUnits}`);
    assert.deepEqual(await run(0, 100, bufferUnits), whole, `one page, bufferUnits ${bufferUnits}`);
  }
});
