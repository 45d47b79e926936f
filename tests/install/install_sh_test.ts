/** install.sh against a fake release on 127.0.0.1 built from `deno run` wrappers, with real sh, curl, tar. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "../../tools/catalog.ts";
import { smokeInstalled } from "../../tools/smoke.ts";
import { listServers } from "../../tools/catalog.ts";
import { isWindows } from "../../lib/platform/mod.ts";
import { serveFakeRelease } from "../_support/fake_release.ts";
import { tempWorkspace } from "../_support/workspace.ts";

const INSTALL_SH = join(REPO_ROOT, "install", "install.sh");

async function runInstaller(releases: string, args: string[], env: Record<string, string> = {}) {
  const { code, stdout, stderr } = await new Deno.Command("sh", {
    args: [INSTALL_SH, ...args],
    env: { CONTINUE_MCP_RELEASES: releases, ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code, stdout: decode(stdout), stderr: decode(stderr) };
}

async function listNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

Deno.test({
  name: "install.sh installs the latest release's servers, writes blocks with absolute paths, and they start",
  ignore: isWindows,
  async fn() {
    await using release = await serveFakeRelease();
    await using home = await tempWorkspace({ "project/README.md": "search-mcp\n" });
    const bin = home.join("bin");
    const run = await runInstaller(release.releases, ["--bin", bin, "--workspace", home.join("project")], {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: home.path,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(release.requested.includes("/releases/latest/download/SHA256SUMS"));
    assert.ok(
      release.requested.includes(`/releases/latest/download/continue-mcp-${Deno.build.target}.tar.gz`),
    );
    assert.match(run.stdout, /checksum ok/);
    assert.match(run.stdout, /not on PATH\. Add it/);
    assert.match(run.stdout, new RegExp(`export PATH="${bin}:\\$PATH"`));

    const servers = listServers();
    assert.deepEqual(
      await listNames(bin),
      ["continue-mcp-rg", ...servers.map((server) => `${server.name}-mcp`)].sort(),
    );
    for (const server of servers) {
      const block = await Deno.readTextFile(
        home.join("project", ".continue", "mcpServers", `${server.name}.yaml`),
      );
      assert.match(block, new RegExp(`^    command: "${join(bin, `${server.name}-mcp`)}"$`, "m"));
      assert.match(block, /^version: /m);
    }
    assert.ok((await listNames(home.join("project", ".continue", "rules"))).includes("notes.md"));

    const results = await smokeInstalled({
      bin,
      workspace: home.join("project"),
      viaSymlinks: true,
      servers: servers.filter((server) => ["fs", "search", "hello"].includes(server.name)),
    });
    assert.deepEqual(results.filter((result) => !result.ok), []);
  },
});

Deno.test({
  name: "install.sh refuses an archive whose checksum does not match and installs nothing",
  ignore: isWindows,
  async fn() {
    await using release = await serveFakeRelease();
    const sums = join(release.assets, "SHA256SUMS");
    const archive = `continue-mcp-${Deno.build.target}.tar.gz`;
    await Deno.writeTextFile(
      sums,
      (await Deno.readTextFile(sums)).replace(
        new RegExp(`^\\S+(  ${archive.replaceAll(".", "\\.")})$`, "m"),
        `${"0".repeat(64)}$1`,
      ),
    );
    await using home = await tempWorkspace();
    const run = await runInstaller(release.releases, [
      "--bin",
      home.join("bin"),
      "--workspace",
      home.join("ws"),
    ], {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: home.path,
    });
    assert.notEqual(run.code, 0);
    assert.match(
      run.stderr,
      /checksum mismatch for continue-mcp-.*: expected 0{64}, got [0-9a-f]{64}; nothing installed/,
    );
    await assert.rejects(Deno.stat(home.join("bin")));
    await assert.rejects(Deno.stat(home.join("ws")));
  },
});

Deno.test({
  name: "install.sh --version downloads from that release, and replaces a running executable",
  ignore: isWindows,
  async fn() {
    await using release = await serveFakeRelease();
    await using home = await tempWorkspace({ "bin/": "" });
    // A real running executable where hello-mcp goes: writing into it would fail with "Text file busy".
    const busy = home.join("bin", "hello-mcp");
    await Deno.copyFile("/bin/sleep", busy);
    await Deno.chmod(busy, 0o755);
    const running = new Deno.Command(busy, { args: ["60"] }).spawn();
    try {
      const run = await runInstaller(release.releases, ["--version", "v9.9.9", "--bin", home.join("bin")], {
        PATH: `${home.join("bin")}:${Deno.env.get("PATH")}`,
        HOME: home.path,
      });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(
        release.requested.includes(`/releases/download/v9.9.9/continue-mcp-${Deno.build.target}.tar.gz`),
      );
      assert.match(run.stdout, /the servers are on PATH/);
      assert.match(run.stdout, /run this again with --workspace/);
      assert.match(await Deno.readTextFile(busy), /^#!\/bin\/sh\n/);
    } finally {
      running.kill("SIGKILL");
      await running.status;
    }
  },
});

Deno.test({
  name: "install.sh rejects an unknown argument",
  ignore: isWindows,
  async fn() {
    const run = await runInstaller("http://127.0.0.1:9/releases", ["--bogus"], {
      PATH: Deno.env.get("PATH") ?? "",
    });
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /unknown argument "--bogus"/);
  },
});
