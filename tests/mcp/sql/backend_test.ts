import assert from "node:assert/strict";
import {
  backendCandidates,
  BESIDE_SQRUFF,
  findBackend,
  INSTALL_HINT,
  isolationFlags,
  missingBackendMessage,
  parseVersion,
} from "../../../mcp/sql/backend.ts";
import { isWindows, toSlashes } from "../../../lib/platform/mod.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

Deno.test("parseVersion reads both CLIs' --version lines", () => {
  assert.deepEqual(parseVersion("sqruff 0.40.0\n"), { version: "0.40.0", major: 0 });
  assert.deepEqual(parseVersion("sqlfluff, version 1.4.5\n"), { version: "1.4.5", major: 1 });
  assert.deepEqual(parseVersion("sqlfluff, version 3.0.0a4"), { version: "3.0.0a4", major: 3 });
  assert.equal(parseVersion("command not found"), null);
});

Deno.test("candidates: explicit paths first, then sqruff before sqlfluff on PATH; SQL_MCP_BACKEND narrows", async () => {
  await using ws = await tempWorkspace({ "bin1/": "", "bin2/": "" });
  for (const [dir, name] of [["bin1", "sqlfluff"], ["bin2", "sqruff"], ["bin2", "sqlfluff"]]) {
    await Deno.writeTextFile(ws.join(dir, name), "#!/bin/sh\n", { mode: 0o755 });
  }
  await Deno.writeTextFile(ws.join("bin1", "sqruff"), "not executable", { mode: 0o644 });
  const PATH = [ws.join("bin1"), ws.join("bin2")].join(isWindows ? ";" : ":");
  const kinds = (env: Record<string, string>) =>
    backendCandidates(env).map((c) => `${c.kind}:${toSlashes(c.path.slice(ws.path.length + 1))}`);
  if (!isWindows) {
    assert.deepEqual(kinds({ PATH }), [
      "sqruff:bin2/sqruff",
      "sqlfluff:bin1/sqlfluff",
      "sqlfluff:bin2/sqlfluff",
    ]);
  }
  assert.deepEqual(kinds({ PATH, SQL_MCP_BACKEND: "sqlfluff" }), [
    "sqlfluff:bin1/sqlfluff",
    "sqlfluff:bin2/sqlfluff",
  ]);
  assert.deepEqual(kinds({ PATH, SQL_MCP_BACKEND: "sqlfluff", SQLFLUFF_PATH: ws.join("x") }).slice(0, 1), [
    "sqlfluff:x",
  ]);
  assert.throws(() => backendCandidates({ SQL_MCP_BACKEND: "pgformatter" }), /use sqruff or sqlfluff/);
});

Deno.test({
  name: "findBackend runs --version, skips executables that fail it, and reports kind, path, version",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "bin/": "" });
    await Deno.writeTextFile(ws.join("bin", "sqruff"), "#!/bin/sh\nexit 3\n", { mode: 0o755 });
    await Deno.writeTextFile(ws.join("bin", "sqlfluff"), "#!/bin/sh\necho 'sqlfluff, version 3.4.2'\n", {
      mode: 0o755,
    });
    assert.deepEqual(await findBackend({ PATH: ws.join("bin") }), {
      kind: "sqlfluff",
      path: ws.join("bin", "sqlfluff"),
      version: "3.4.2",
      major: 3,
      source: "PATH",
    });
    assert.equal(await findBackend({ PATH: ws.join("bin"), SQL_MCP_BACKEND: "sqruff" }), null);
    assert.equal(
      missingBackendMessage({ SQL_MCP_BACKEND: "sqruff", SQRUFF_PATH: "/opt/sq" }),
      `no SQL backend: SQRUFF_PATH="/opt/sq" does not run; no sqruff found on PATH (SQL_MCP_BACKEND=sqruff); ${INSTALL_HINT}`,
    );
  },
});

Deno.test("isolationFlags: what sqruff 0.40 and 0.44 list in --help (measured), nothing from prose", () => {
  // Excerpts of the real `sqruff --help` of the PyPI builds.
  const v040 = "      --config <CONFIG>              Path to a configuration file\n" +
    "      --library-path <LIBRARY_PATH>  Override the `library_path` value for the jinja templater.";
  const v044 =
    "      --config <CONFIG>\n          Additional configuration file whose settings override discovered " +
    "configuration\n      --ignore-local-config\n          Ignore discovered global and project configuration " +
    "files. Still load --config\n      --library-path <LIBRARY_PATH>\n";
  assert.deepEqual(isolationFlags(v040), ["--library-path"]);
  assert.deepEqual(isolationFlags(v044), ["--ignore-local-config", "--library-path"]);
  assert.deepEqual(isolationFlags("--library-paths, --ignore-local-configs"), []);
});

Deno.test({
  name: "findBackend asks sqruff's --help for the isolation flags; a failing --help means none",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "bin/": "" });
    const script = (help: string) =>
      `#!/bin/sh\nif [ "$1" = --version ]; then echo 'sqruff 0.44.0'; exit 0; fi\n${help}\n`;
    await Deno.writeTextFile(ws.join("bin", "sqruff"), script("echo '  --ignore-local-config'"), {
      mode: 0o755,
    });
    const found = await findBackend({ PATH: ws.join("bin") });
    assert.deepEqual(found?.flags, ["--ignore-local-config"]);
    await Deno.writeTextFile(ws.join("bin", "sqruff"), script("exit 2"), { mode: 0o755 });
    assert.deepEqual((await findBackend({ PATH: ws.join("bin") }))?.flags, []);
  },
});

Deno.test({
  name:
    "the sqruff a release archive ships beside the servers comes after SQRUFF_PATH, before PATH, via symlinks",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "release/bin/": "", "path/": "", "links/": "" });
    const fake = (version: string) => `#!/bin/sh\necho 'sqruff ${version}'\n`;
    await Deno.writeTextFile(ws.join("release/bin/sql-mcp"), "#!/bin/sh\n", { mode: 0o755 });
    await Deno.writeTextFile(ws.join("release/bin", BESIDE_SQRUFF), fake("0.44.0"), { mode: 0o755 });
    await Deno.writeTextFile(ws.join("path/sqruff"), fake("0.30.0"), { mode: 0o755 });
    await Deno.writeTextFile(ws.join("path/sqlfluff"), "#!/bin/sh\necho 'sqlfluff, version 4.5.0'\n", {
      mode: 0o755,
    });
    // A user links the server into a folder on PATH: the bundled sqruff is found through the link.
    await Deno.symlink(ws.join("release/bin/sql-mcp"), ws.join("links/sql-mcp"));
    const execPath = ws.join("links/sql-mcp");
    const found = await findBackend({ PATH: ws.join("path") }, { execPath });
    assert.deepEqual(
      { source: found?.source, version: found?.version, path: found?.path },
      { source: "beside", version: "0.44.0", path: ws.join("release/bin", BESIDE_SQRUFF) },
    );
    const explicit = await findBackend({ PATH: ws.join("path"), SQRUFF_PATH: ws.join("path/sqruff") }, {
      execPath,
    });
    assert.equal(explicit?.source, "SQRUFF_PATH");
    const sqlfluff = await findBackend({ PATH: ws.join("path"), SQL_MCP_BACKEND: "sqlfluff" }, { execPath });
    assert.deepEqual([sqlfluff?.kind, sqlfluff?.source], ["sqlfluff", "PATH"]);
    const none = await findBackend({ PATH: ws.join("path") }, { execPath: ws.join("path/sqlfluff") });
    assert.deepEqual([none?.version, none?.source], ["0.30.0", "PATH"], "nothing beside: PATH's sqruff");
  },
});
