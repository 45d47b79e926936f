import assert from "node:assert/strict";
import { sqruff } from "../../tools/externals.ts";
import { isWindows } from "../../lib/platform/mod.ts";
import { tempWorkspace } from "../_support/workspace.ts";

Deno.test({
  name:
    "doctor names the sqruff it found, where (SQRUFF_PATH, bundled, PATH) and its version; one that cannot be isolated warns",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "bin/": "" });
    const fake = (version: string, help: string) =>
      `#!/bin/sh\nif [ "$1" = --version ]; then echo 'sqruff ${version}'; else echo '${help}'; fi\n`;
    await Deno.writeTextFile(
      ws.join("bin/sqruff"),
      fake("0.44.0", "  --ignore-local-config  --library-path"),
      {
        mode: 0o755,
      },
    );
    assert.deepEqual(await sqruff({ PATH: ws.join("bin") }), {
      name: "sqruff",
      required: false,
      found: true,
      detail: `0.44.0 (PATH) ${ws.join("bin/sqruff")}`,
    });
    // 0.40–0.43 read only --config: --library-path is all they need.
    await Deno.writeTextFile(ws.join("v40"), fake("0.40.0", "  --library-path"), { mode: 0o755 });
    assert.equal((await sqruff({ PATH: "", SQRUFF_PATH: ws.join("v40") })).found, true);
    await Deno.writeTextFile(ws.join("old"), fake("0.38.0", "  --config"), { mode: 0o755 });
    const old = await sqruff({ PATH: "", SQRUFF_PATH: ws.join("old") });
    assert.equal(old.found, false);
    assert.equal(
      old.detail,
      `0.38.0 (SQRUFF_PATH) ${ws.join("old")}: has no --library-path, so it cannot be isolated; use 0.44`,
    );
    // From 0.44 on, one without --ignore-local-config would read configs planted in parent folders.
    await Deno.writeTextFile(ws.join("odd"), fake("0.45.0", "  --library-path"), { mode: 0o755 });
    assert.match(
      (await sqruff({ PATH: "", SQRUFF_PATH: ws.join("odd") })).detail,
      /has no --ignore-local-config,/,
    );
    // SQL_MCP_BACKEND=sqlfluff does not hide which sqruff there is.
    const none = await sqruff({ PATH: ws.path, SQL_MCP_BACKEND: "sqlfluff" });
    assert.match(none.detail, /^not found \(sql-mcp falls back to sqlfluff\): `pip install sqruff`/);
  },
});
