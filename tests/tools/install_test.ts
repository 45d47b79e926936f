/** `deno task install` in wrapper mode (compiling needs Deno's runtime download) and its file moves. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultBinFolder, replaceFile } from "../../tools/install_files.ts";
import { listServers, REPO_ROOT } from "../../tools/catalog.ts";
import { inspectServer } from "../../tools/inspect.ts";
import { isWindows, os } from "../../lib/platform/mod.ts";
import { tempWorkspace } from "../_support/workspace.ts";

Deno.test("the default bin folder never doubles a bin DENO_INSTALL_ROOT already ends in", () => {
  assert.equal(defaultBinFolder({ DENO_INSTALL_ROOT: join("/opt", "deno") }), join("/opt", "deno", "bin"));
  assert.equal(
    defaultBinFolder({ DENO_INSTALL_ROOT: join("/opt", "deno", "bin") }),
    join("/opt", "deno", "bin"),
  );
  assert.equal(defaultBinFolder({ HOME: "/home/u" }), join("/home/u", ".deno", "bin"));
});

Deno.test({
  name: "replaceFile replaces an executable while it runs, and the running one carries on",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "bin/": "", "new-version": "#!/bin/sh\necho new\n" });
    const target = ws.join("bin", "hello-mcp");
    await Deno.copyFile("/bin/sleep", target);
    await Deno.chmod(target, 0o755);
    const running = new Deno.Command(target, { args: ["60"] }).spawn();
    try {
      // What the installer did before: writing into the running file (Linux refuses; macOS lets it corrupt).
      if (os === "linux") {
        await assert.rejects(Deno.copyFile(ws.join("new-version"), target), /Text file busy/);
      }
      await replaceFile(ws.join("new-version"), target);
      const { stdout } = await new Deno.Command(target, { stdout: "piped" }).output();
      assert.equal(new TextDecoder().decode(stdout), "new\n");
      assert.deepEqual([...Deno.readDirSync(ws.join("bin"))].map((entry) => entry.name), ["hello-mcp"]);
    } finally {
      running.kill("SIGKILL");
    }
    assert.equal((await running.status).signal, "SIGKILL", "the old server ran on until killed");
  },
});

async function install(args: string[], env: Record<string, string>) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "install", "--wrappers", ...args],
    cwd: REPO_ROOT,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code, out: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr) };
}

async function baseEnv(home: string): Promise<Record<string, string>> {
  // How this machine reaches the npm registry (a TLS-inspecting proxy's CA, say) is kept: a user's install has it.
  const keep = ["PATH", "SystemRoot", "TEMP", "TMP", "LOCALAPPDATA", "APPDATA", "PATHEXT", "ComSpec"];
  keep.push("DENO_TLS_CA_STORE", "DENO_CERT", "NODE_EXTRA_CA_CERTS", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY");
  const env: Record<string, string> = { HOME: home, USERPROFILE: home };
  for (const name of keep) {
    const value = Deno.env.get(name);
    if (value) env[name] = value;
  }
  // The wrappers resolve npm packages from the same cache the suite uses, wherever HOME points.
  const { stdout } = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
    .output();
  env.DENO_DIR = JSON.parse(new TextDecoder().decode(stdout)).denoDir;
  return env;
}

/** The wrapper Continue starts: `deno install` writes a `.cmd` on Windows. */
const wrapperName = (server: string) => `${server}-mcp${isWindows ? ".cmd" : ""}`;
const escapeRegExp = (text: string) => text.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&");

Deno.test({
  name: "install --wrappers --bin DIR puts the wrappers in DIR and the blocks name them by absolute path",
  async fn() {
    await using ws = await tempWorkspace({ "project/": "" });
    const bin = ws.join("tools");
    const run = await install(["--bin", bin, "--workspace", ws.join("project")], await baseEnv(ws.path));
    assert.equal(run.code, 0, run.out);
    const names = [...Deno.readDirSync(bin)].filter((entry) => entry.isFile).map((entry) => entry.name);
    for (const server of listServers()) assert.ok(names.includes(wrapperName(server.name)), server.name);
    // Before: `deno install --root <parent of DIR>` put them in <parent>/bin.
    await assert.rejects(Deno.stat(ws.join("bin")));
    for (const server of listServers()) {
      const block = await Deno.readTextFile(
        ws.join("project", ".continue", "mcpServers", `${server.name}.yaml`),
      );
      const command = JSON.stringify(join(bin, wrapperName(server.name)));
      assert.match(block, new RegExp(`^    command: ${escapeRegExp(command)}$`, "m"));
    }
    // The moved wrapper still finds the config Deno wrote for it.
    const hello = listServers().find((server) => server.name === "hello")!;
    const seen = await inspectServer(hello, {
      cwd: ws.join("project"),
      command: join(bin, wrapperName("hello")),
    });
    assert.ok(seen.ok, seen.error);
    assert.equal(seen.smoke?.text, "pong");
  },
});

Deno.test({
  name: "install --wrappers with DENO_INSTALL_ROOT ending in bin installs there, not into bin/bin",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "root/bin/": "", "project/": "" });
    const run = await install(["--workspace", ws.join("project")], {
      ...await baseEnv(ws.path),
      DENO_INSTALL_ROOT: ws.join("root", "bin"),
    });
    assert.equal(run.code, 0, run.out);
    assert.ok((await Deno.stat(ws.join("root", "bin", "hello-mcp"))).isFile);
    await assert.rejects(Deno.stat(ws.join("root", "bin", "bin")));
    const leftovers = [...Deno.readDirSync(ws.join("root", "bin"))].filter((entry) =>
      entry.name.startsWith(".continue-mcp-install-")
    );
    assert.deepEqual(leftovers, []);
  },
});
