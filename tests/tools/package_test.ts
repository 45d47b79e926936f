import assert from "node:assert/strict";
import { archiveName, archiveRelease, checksumLines, stageRelease } from "../../tools/package.ts";
import { join } from "node:path";
import { listServers } from "../../tools/catalog.ts";
import { fetchCrate, readSqruffPin, sha256Hex } from "../../tools/sqruff_build.ts";
import { isWindows } from "../../lib/platform/mod.ts";
import { tempWorkspace } from "../_support/workspace.ts";

Deno.test("archive names carry the target, never the version", () => {
  assert.equal(archiveName("x86_64-unknown-linux-gnu"), "continue-mcp-x86_64-unknown-linux-gnu.tar.gz");
  assert.equal(archiveName("aarch64-apple-darwin"), "continue-mcp-aarch64-apple-darwin.tar.gz");
  assert.equal(archiveName("x86_64-pc-windows-msvc"), "continue-mcp-x86_64-pc-windows-msvc.zip");
});

Deno.test({
  name: "checksumLines writes what sha256sum (shasum -a 256) writes, for every file but SHA256SUMS",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "b.zip": "bee", "a.tar.gz": "ay", "SHA256SUMS": "old" });
    const { stdout } = await new Deno.Command("shasum", {
      args: ["-a", "256", "a.tar.gz", "b.zip"],
      cwd: ws.path,
      stdout: "piped",
    })
      .output();
    assert.equal(await checksumLines(ws.path), new TextDecoder().decode(stdout));
  },
});

Deno.test({
  name: "a release archive unpacks to continue-mcp/ with every server, ripgrep, block files and rules",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "unpacked/": "" });
    await stageRelease({ target: Deno.build.target, out: ws.join("stage"), denoRun: true });
    const archive = await archiveRelease({
      stage: ws.join("stage"),
      target: Deno.build.target,
      out: ws.join("out"),
    });
    const { stdout } = await new Deno.Command("tar", { args: ["-tzf", archive], stdout: "piped" }).output();
    const entries = new TextDecoder().decode(stdout).split("\n");
    assert.ok(entries.includes("continue-mcp/bin/continue-mcp-rg"));
    assert.ok(entries.includes("continue-mcp/continue/rules/notes.md"));
    for (const server of listServers()) {
      assert.ok(entries.includes(`continue-mcp/bin/${server.name}-mcp`), server.name);
      assert.ok(entries.includes(`continue-mcp/continue/mcpServers/${server.name}.yaml`), server.name);
    }
  },
});

Deno.test({
  name:
    "the archive carries sqruff as continue-mcp-sqruff; bundled.json lists it and ripgrep with their sha256",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "sqruff": "#!/bin/sh\necho 'sqruff 0.44.0'\n" });
    await stageRelease({
      target: Deno.build.target,
      out: ws.join("stage"),
      denoRun: true,
      sqruff: ws.join("sqruff"),
    });
    const archive = await archiveRelease({
      stage: ws.join("stage"),
      target: Deno.build.target,
      out: ws.join("out"),
    });
    const { stdout } = await new Deno.Command("tar", { args: ["-tzf", archive], stdout: "piped" }).output();
    const entries = new TextDecoder().decode(stdout).split("\n");
    assert.ok(entries.includes("continue-mcp/bin/continue-mcp-sqruff"));
    assert.ok(entries.includes("continue-mcp/bundled.json"));
    const root = ws.join("stage", "continue-mcp");
    const bundled = JSON.parse(await Deno.readTextFile(join(root, "bundled.json")));
    const pin = await readSqruffPin();
    assert.deepEqual(bundled.sqruff, {
      file: "bin/continue-mcp-sqruff",
      version: pin.version,
      source: `${pin.crate} (sha256 ${pin.sha256}), cargo build --release --locked, default features`,
      sha256: await sha256Hex(await Deno.readFile(ws.join("sqruff"))),
    });
    assert.equal(bundled.ripgrep.file, "bin/continue-mcp-rg");
    for (const tool of Object.values(bundled) as { file: string; sha256: string }[]) {
      assert.equal(await sha256Hex(await Deno.readFile(join(root, tool.file))), tool.sha256, tool.file);
      assert.ok(((await Deno.stat(join(root, tool.file))).mode ?? 0) & 0o100, `${tool.file} is executable`);
    }
  },
});

Deno.test("a compiled release refuses to stage without sqruff, before compiling anything", async () => {
  await using ws = await tempWorkspace();
  await assert.rejects(
    stageRelease({ target: Deno.build.target, out: ws.join("stage") }),
    /No sqruff for the archive: pass --sqruff FILE/,
  );
  assert.equal(await Deno.stat(ws.join("stage")).catch(() => null), null, "nothing staged");
});

Deno.test("sqruff for the archives: one pinned version everywhere, a refused crate on a sha256 mismatch", async () => {
  const pin = await readSqruffPin();
  const pypi = (await Deno.readTextFile(new URL("../../.ci/sql-backends.txt", import.meta.url)))
    .match(/^sqruff==(\S+)/m)?.[1];
  assert.equal(pin.version, pypi, "the archives ship the sqruff version CI tests (.ci/sql-backends.txt)");
  assert.equal(pin.crate, `https://static.crates.io/crates/sqruff/sqruff-${pin.version}.crate`);
  assert.match(pin.sha256, /^[0-9a-f]{64}$/);
  await using ws = await tempWorkspace({ "evil.crate": "not the pinned crate" });
  await assert.rejects(
    fetchCrate(pin, ws.join("evil.crate")),
    /sha256 [0-9a-f]{64}, not the pinned .*refusing it/,
  );
  // The release workflow builds it on every target's runner and hands it to the stage step.
  const workflow = await Deno.readTextFile(new URL("../../.github/workflows/release.yml", import.meta.url));
  assert.match(workflow, /deno run -A tools\/sqruff_build\.ts --out /);
  assert.match(
    workflow,
    /tools\/package\.ts stage --target \$\{\{ matrix\.target \}\} --out stage --sqruff /,
  );
  assert.doesNotMatch(workflow, /pip install "?sqlfluff/, "the smoke jobs use the bundled sqruff");
});
