import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { textOf } from "../../_support/connect.ts";
import { spawnStdio, type StdioConnection } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";

const FAKE = fromFileUrl(new URL("./fake_sqruff.ts", import.meta.url));
const ROUNDS = 10;

/** Toggles `-- on` / `-- off` until `stop()`; returns the state the last successful edit left. */
async function toggle(
  edit: StdioConnection,
  stop: () => boolean,
): Promise<{ last: string; failures: string[] }> {
  let state = "on";
  const failures: string[] = [];
  while (!stop()) {
    const next = state === "on" ? "off" : "on";
    const result = await edit.client.callTool({
      name: "edit_file",
      arguments: { path: "q.sql", edits: [{ old_text: `-- ${state}\n`, new_text: `-- ${next}\n` }] },
    }) as CallToolResult;
    if (result.isError) failures.push(textOf(result));
    else state = next;
  }
  return { last: state, failures };
}

Deno.test({
  name: "stdio: sql_format write: true racing an edit server never overwrites an edit reported as done",
  ignore: isWindows, // The fake sqruff is a shell script.
  async fn() {
    await using ws = await tempWorkspace({ "bin/": "", "w/": "" });
    const script =
      `#!/bin/sh\nexec "${Deno.execPath()}" run --quiet --no-config --allow-all "${FAKE}" "$@"\n`;
    await Deno.writeTextFile(ws.join("bin", "sqruff"), script, { mode: 0o755 });
    await using sql = await spawnStdio("sql", {
      cwd: ws.join("w"),
      env: { PATH: ws.join("bin"), SQL_MCP_BACKEND: "" },
    });
    await using edit = await spawnStdio("edit", { cwd: ws.join("w") });
    const file = ws.join("w", "q.sql");
    for (let round = 0; round < ROUNDS; round++) {
      await Deno.writeTextFile(file, "SELECT a FROM t;\n-- on\n");
      let formatted = false;
      const toggling = toggle(edit, () => formatted);
      const result = await sql.client.callTool({
        name: "sql_format",
        arguments: { path: "q.sql", write: true },
      }) as CallToolResult;
      formatted = true;
      assert.equal(result.isError, undefined, textOf(result));
      const { last, failures } = await toggling;
      // A lost edit shows twice: the file holds the state before it, and the next toggle finds no old_text.
      assert.deepEqual(failures, [], `round ${round}: ${textOf(result)}`);
      assert.match(await Deno.readTextFile(file), new RegExp(`\\n-- ${last}\\n$`), `round ${round}`);
    }
  },
});
