import assert from "node:assert/strict";
import { archiveName, archiveRelease, checksumLines, stageRelease } from "../../tools/package.ts";
import { listServers } from "../../tools/catalog.ts";
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
