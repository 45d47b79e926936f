import assert from "node:assert/strict";
import { pollUntil } from "../../_support/poll.ts";
import { collectInputs, MAX_SQL_BYTES } from "../../../mcp/sql/inputs.ts";
import { ToolError } from "../../../lib/mcp/errors.ts";
import { os } from "../../../lib/platform/mod.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const ACTION = "Cannot lint SQL";

async function failure(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(() => null, (error: unknown) => error);
  assert.ok(error instanceof ToolError, `expected a ToolError, got ${error}`);
  return error;
}

Deno.test({
  name: "a FIFO is refused as not a regular file, named or inside a folder, without opening it",
  ignore: os === "windows",
  fn: async () => {
    await using ws = await tempWorkspace({ "d/a.sql": "select 1\n" });
    for (const fifo of ["p.sql", "d/p.sql"]) {
      const made = await new Deno.Command("mkfifo", { args: [ws.join(fifo)] }).output();
      assert.ok(made.success);
    }
    const workspace = new Workspace({ cwd: ws.path });
    const call = collectInputs({ path: "p.sql" }, workspace, ACTION).then(
      () => null,
      (error: unknown) => error,
    );
    let settled = false;
    call.finally(() => settled = true);
    // Hang guard: reading the FIFO blocks until a writer opens it, so open one if the call is stuck.
    if (!await pollUntil(() => settled, 10_000)) (await Deno.open(ws.join("p.sql"), { write: true })).close();
    const error = await call;
    assert.ok(settled, "reading the FIFO hung");
    assert.ok(error instanceof ToolError);
    assert.equal(error.code, "invalid_argument");
    assert.match(error.message, /^Cannot lint SQL: cannot read "p\.sql": not a regular file/);
    // A folder expands to its regular .sql files only.
    const inputs = await collectInputs({ path: "d" }, workspace, ACTION);
    assert.deepEqual("files" in inputs && inputs.files.map((file) => file.name), ["d/a.sql"]);
  },
});

Deno.test("a file over the cap is refused from its size, before reading it", async () => {
  await using ws = await tempWorkspace({ "ok.sql": "select 1\n" });
  // 64 GiB, sparse: reading it into memory would fail (out of memory) instead of reporting its size.
  const huge = ws.join("huge.sql");
  await Deno.writeTextFile(huge, "");
  if (os === "windows") await Deno.truncate(huge, MAX_SQL_BYTES + 1); // NTFS would reserve the space
  else await Deno.truncate(huge, 64 * 1024 ** 3);
  const workspace = new Workspace({ cwd: ws.path });
  const error = await failure(collectInputs({ paths: ["ok.sql", "huge.sql"] }, workspace, ACTION));
  assert.equal(error.code, "too_large");
  assert.match(
    error.message,
    /^Cannot lint SQL: "huge\.sql" has [\d,]+ bytes, over the 1,000,000 limit; split it$/,
  );
});
