import assert from "node:assert/strict";
import { sqruff } from "../../tools/externals.ts";
import { isWindows } from "../../lib/platform/mod.ts";
import { tempWorkspace } from "../_support/workspace.ts";

Deno.test({
  name: "doctor names the sqruff it found, where (SQRUFF_PATH, bundled, PATH) and its version; too old warns",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "bin/": "" });
    const fake = (version: string, help: string) =>
      `#!/bin/sh\nif [ "$1" = --version ]; then echo 'sqruff ${version}'; else echo '${help}'; fi\n`;
    await Deno.writeTextFile(ws.join("bin/sqruff"), fake("0.44.0", "  --ignore-local-config"), {
      mode: 0o755,
    });
    assert.deepEqual(await sqruff({ PATH: ws.join("bin") }), {
      name: "sqruff",
      required: false,
      found: true,
      detail: `0.44.0 (PATH) ${ws.join("bin/sqruff")}`,
    });
    await Deno.writeTextFile(ws.join("old"), fake("0.40.0", "  --library-path"), { mode: 0o755 });
    const old = await sqruff({ PATH: "", SQRUFF_PATH: ws.join("old") });
    assert.equal(old.found, false);
    assert.equal(
      old.detail,
      `0.40.0 (SQRUFF_PATH) ${ws.join("old")}: too old, has no --ignore-local-config; use 0.44 or later`,
    );
    // SQL_MCP_BACKEND=sqlfluff does not hide which sqruff there is.
    const none = await sqruff({ PATH: ws.path, SQL_MCP_BACKEND: "sqlfluff" });
    assert.match(none.detail, /^not found \(sql-mcp falls back to sqlfluff\): `pip install sqruff`/);
  },
});
