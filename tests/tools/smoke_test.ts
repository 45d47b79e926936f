import assert from "node:assert/strict";
import { join } from "node:path";
import { pathWithout } from "../../tools/smoke.ts";
import { REPO_ROOT } from "../../tools/catalog.ts";
import { stageRelease } from "../../tools/package.ts";
import { findOnPath } from "../../lib/platform/which.ts";
import { isWindows } from "../../lib/platform/mod.ts";
import { tempWorkspace } from "../_support/workspace.ts";

Deno.test({
  name: "pathWithout hides deno and rg but keeps the other tools of their folders",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({
      "usr/rg": "",
      "usr/bash": "",
      "deno/deno": "",
      "other/ls": "",
      "shadow/": "",
    });
    for (const file of ["usr/rg", "usr/bash", "deno/deno", "other/ls"]) {
      await Deno.chmod(ws.join(file), 0o755);
    }
    const path = await pathWithout(
      [ws.join("usr"), ws.join("deno"), ws.join("other")].join(":"),
      ws.join("shadow"),
    );
    assert.equal(await findOnPath("rg", { PATH: path }), null);
    assert.equal(await findOnPath("deno", { PATH: path }), null);
    assert.ok(await findOnPath("bash", { PATH: path }));
    assert.equal(await findOnPath("ls", { PATH: path }), ws.join("other", "ls"));
  },
});

Deno.test({
  name: "smoke.ts passes installed servers and fails, naming it, a server that does not start",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "project/README.md": "search-mcp\n" });
    const root = await stageRelease({ target: Deno.build.target, out: ws.join("stage"), denoRun: true });
    const smoke = (bin: string, ...more: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          join(REPO_ROOT, "tools", "smoke.ts"),
          "--bin",
          bin,
          "--workspace",
          ws.join("project"),
          ...more,
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
    // The servers that need tools of folders shared with rg (bash, sqlfluff) and the ripgrep users.
    const good = await smoke(
      join(root, "bin"),
      "--via-symlinks",
      ...["fs", "search", "shell", "sql"].flatMap((name) => ["--server", name]),
    );
    const goodText = new TextDecoder().decode(good.stdout);
    assert.equal(good.code, 0, goodText + new TextDecoder().decode(good.stderr));
    assert.match(goodText, /all 4 servers ok with no deno or rg on PATH/);

    await Deno.writeTextFile(join(root, "bin", "hello-mcp"), "#!/bin/sh\nexit 3\n");
    const bad = await smoke(join(root, "bin"), "--server", "hello", "--server", "fs");
    assert.equal(bad.code, 1);
    const badText = new TextDecoder().decode(bad.stdout);
    assert.match(badText, /^FAIL hello-mcp /m);
    assert.match(badText, /^ok {3}fs-mcp /m);
    assert.match(badText, /^1 server\(s\) failed$/m);
  },
});
