/** sql_format write: true refuses the sandbox's protected names: each such file is reported and left as it was. */
import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { textOf } from "../../_support/connect.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { type TempWorkspace, tempWorkspace } from "../../_support/workspace.ts";
import { treeSnapshot } from "../../_support/tree.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";

const FAKE = fromFileUrl(new URL("./fake_sqruff.ts", import.meta.url));
const MESSY = "SELECT a FROM t;\n";

async function sqlServer(ws: TempWorkspace, env: Record<string, string> = {}) {
  const script = `#!/bin/sh\nexec "${Deno.execPath()}" run --quiet --no-config --allow-all "${FAKE}" "$@"\n`;
  await Deno.writeTextFile(ws.join("bin", "sqruff"), script, { mode: 0o755 });
  return await spawnStdio("sql", {
    cwd: ws.join("w"),
    env: { PATH: ws.join("bin"), SQL_MCP_BACKEND: "", ...env },
  });
}

Deno.test({
  name: "stdio: sql_format write: true refuses protected files (permission_denied each), writes the others",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({
      "bin/": "",
      "w/.git/hooks/": "",
      "w/.vscode/q.sql": MESSY,
      "w/.continue/q.sql": MESSY,
      "w/.git/hooks/q.sql": MESSY,
      "w/x.sql": { symlink: ".vscode/q.sql" },
      "w/ok.sql": MESSY,
      "other/.idea/q.sql": MESSY,
    });
    await using sql = await sqlServer(ws, { MCP_ALLOW_DIRS: ws.join("other") });
    const result = await sql.client.callTool({
      name: "sql_format",
      arguments: {
        paths: [
          ".vscode/q.sql",
          ".continue/q.sql",
          ".git/hooks/q.sql",
          "x.sql",
          "ok.sql",
          ws.join("other/.idea/q.sql"),
        ],
        write: true,
      },
    }) as CallToolResult;
    const text = textOf(result);
    assert.match(text, /^1 of 5 files rewritten/, text);
    for (const name of [".vscode", ".continue", ".git/hooks", ".idea"]) {
      assert.match(
        text,
        new RegExp(`not written \\(permission_denied: Cannot write .*"${RegExp.escape(name)}" is protected`),
      );
    }
    const after = await treeSnapshot(ws.path);
    for (const name of ["w/.vscode/q.sql", "w/.continue/q.sql", "w/.git/hooks/q.sql", "other/.idea/q.sql"]) {
      assert.equal(after[name], MESSY, name);
    }
    assert.notEqual(after["w/ok.sql"], MESSY);
  },
});
