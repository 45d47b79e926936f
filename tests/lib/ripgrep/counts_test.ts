import assert from "node:assert/strict";
import { COUNT_ARGS, type CountRecord, countRecords } from "../../../lib/ripgrep/counts.ts";
import { requireRipgrep } from "../../../lib/ripgrep/locate.ts";
import { RipgrepRun } from "../../../lib/ripgrep/run.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

async function counts(cwd: string, pattern: string, paths = ["."]): Promise<CountRecord[]> {
  const run = new RipgrepRun(await requireRipgrep(), [
    ...COUNT_ARGS,
    "--no-config",
    "--sort",
    "path",
    "--path-separator",
    "/",
    "-e",
    pattern,
    "--",
    ...paths,
  ], { cwd });
  const out: CountRecord[] = [];
  for await (const record of countRecords(run)) out.push(record);
  return out;
}

Deno.test("countRecords reads ripgrep's per-file counts", async () => {
  await using ws = await tempWorkspace({
    "a.txt": "x\nx x\ny\n",
    "b c.txt": "y\n",
    "d/e.txt": "x\n".repeat(1000),
  });
  assert.deepEqual(await counts(ws.path, "x"), [
    { path: "a.txt", count: 2 },
    { path: "d/e.txt", count: 1000 },
  ]);
  assert.deepEqual(await counts(ws.path, "zzz"), []);
  // A single file named as path still comes with its name.
  assert.deepEqual(await counts(ws.path, "y", ["b c.txt"]), [{ path: "b c.txt", count: 1 }]);
});

Deno.test({
  name: "countRecords: a file name holding a newline and digits is one name, not a count",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "7\n8\n": "x\n", "z.txt": "x\nx\n" });
    assert.deepEqual(await counts(ws.path, "x"), [{ path: "7\n8\n", count: 1 }, { path: "z.txt", count: 2 }]);
  },
});
