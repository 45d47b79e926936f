import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { connect } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { requireRipgrep } from "../../../lib/ripgrep/locate.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { grep, type GrepRequest } from "../../../mcp/search/grep.ts";
import { renderGrep } from "../../../mcp/search/render.ts";
import { createServer } from "../../../mcp/search/server.ts";
import { GIT } from "./_connect.ts";

/** A server whose workspace is the client's MCP roots. */
function connectRoots(roots: string[]) {
  return connect(
    createServer({ workspace: new Workspace({ cwd: roots[0] }), ripgrep: requireRipgrep, timeoutMs: 30_000 }),
    { roots: roots.map((root) => pathToFileURL(root).href) },
  );
}

Deno.test("without a path, every workspace root is searched: the primary relative, the others absolute", async () => {
  await using ws = await tempWorkspace({
    "app/.git/HEAD": "x",
    "app/src/a.ts": "needle\n",
    "lib/.git/HEAD": "x",
    "lib/b.ts": "needle\n",
  });
  await using c = await connectRoots([ws.join("app"), ws.join("lib")]);
  const other = ws.join("lib").replaceAll("\\", "/");
  assert.equal(
    await c.text("search_grep", { pattern: "needle" }),
    `src/a.ts\n1:needle\n\n${other}/b.ts\n1:needle\n\n2 matching lines in 2 files`,
  );
  assert.equal(
    await c.text("search_glob", { pattern: "*.ts", sort: "path" }),
    `src/a.ts\n${other}/b.ts\n\n2 files`,
  );
  assert.equal(
    await c.text("search_grep", { pattern: "zzz" }),
    `No matches for /zzz/ in ., ${other} (2 files searched)`,
  );
  // An explicit path still means one place.
  assert.equal(
    await c.text("search_grep", { pattern: "needle", path: "src", mode: "files" }),
    "src/a.ts\n\n1 file",
  );
});

Deno.test("a root inside another root is searched once", async () => {
  await using ws = await tempWorkspace({ ...GIT, "a.txt": "needle\n", "sub/b.txt": "needle\n" });
  await using c = await connectRoots([ws.path, ws.join("sub")]);
  assert.equal(
    await c.text("search_grep", { pattern: "needle", mode: "files" }),
    "a.txt\nsub/b.txt\n\n2 files",
  );
});

Deno.test("several roots page the same buffered or from a sorted run", async () => {
  const files: Record<string, string> = {};
  for (const root of ["one", "two"]) {
    files[`${root}/.git/HEAD`] = "x";
    for (let f = 0; f < 6; f++) files[`${root}/d${f % 2}/f${f}.txt`] = "hit\ntext\nhit\n";
  }
  await using ws = await tempWorkspace(files);
  const rg = await requireRipgrep();
  // `two` sorts after `one` by name but is listed first: the argument order must win.
  const request: GrepRequest = {
    pattern: "hit",
    paths: [".", ws.join("one").replaceAll("\\", "/")],
    limit: 5,
    context: 1,
  };
  const render = async (offset: number, bufferUnits: number) => {
    const outcome = await grep(rg, { ...request, offset }, {
      cwd: ws.join("two"),
      timeoutMs: 30_000,
      bufferUnits,
    });
    return renderGrep(outcome, {
      pattern: "hit",
      where: ".",
      mode: "lines",
      offset,
      context: 1,
      timeoutMs: 30_000,
    });
  };
  const buffered: string[] = [];
  const streamed: string[] = [];
  for (let offset = 0; offset < 24; offset += 5) {
    buffered.push(await render(offset, 2_000));
    streamed.push(await render(offset, 0));
  }
  assert.deepEqual(buffered, streamed);
  assert.match(buffered[0], /^d0\/f0\.txt\n/);
  assert.match(buffered[4], /\/one\/d1\/f5\.txt\n[\s\S]*\(showing 21-24\)$/);
});
