/** Modes: sandboxed when the OS can, refused under `require` when it cannot, loudly unsandboxed otherwise. */
import assert from "node:assert/strict";
import { connect } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { Sandbox } from "../../../lib/sandbox/sandbox.ts";
import { createServer } from "../../../mcp/shell/server.ts";
import { bwrapUsable } from "./sandbox_support.ts";
import { spawnShellProcess } from "./server_process.ts";
import { waitFor } from "./processes.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

/** A server whose OS cannot sandbox (bubblewrap missing), in mode `mode`. */
function withoutEngine(cwd: string, mode: string) {
  const env = { ...Deno.env.toObject(), MCP_SANDBOX: mode };
  const workspace = new Workspace({ cwd });
  return createServer({
    workspace,
    serverEnv: env,
    sandbox: new Sandbox({
      env,
      workspace: { roots: () => Promise.resolve({ roots: workspace.roots, allowDirs: [] }) },
      probe: () =>
        Promise.resolve({
          problem: "bwrap is not installed: install bubblewrap (apt install bubblewrap)",
          disableUserns: false,
        }),
    }),
  });
}

Deno.test({
  name: "require without an engine: every command is refused, saying how to install bubblewrap",
  ignore: isWindows,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(withoutEngine(ws.path, "require"));
    assert.equal(
      await c.text("shell_run", { command: "echo hi" }),
      "Error [unavailable]: Cannot run the command: the sandbox is required (MCP_SANDBOX=require) but bwrap is " +
        "not installed: install bubblewrap (apt install bubblewrap)",
    );
    assert.match(await c.text("shell_start", { command: "echo hi" }), /^Error \[unavailable\]/);
  },
});

Deno.test({
  name: "auto without an engine, and off: jobs run, and the first result says they are unsandboxed (once)",
  ignore: isWindows,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using auto = await connect(withoutEngine(ws.path, "auto"));
    const first = await auto.call("shell_run", { command: "echo hi" });
    assert.deepEqual(first.content, [
      { type: "text", text: first.content[0].type === "text" ? first.content[0].text : "" },
      {
        type: "text",
        text:
          "[sandbox OFF: bwrap is not installed: install bubblewrap (apt install bubblewrap); commands run unsandboxed]",
      },
    ]);
    assert.equal((await auto.call("shell_run", { command: "echo again" })).content.length, 1);
    await using off = await connect(withoutEngine(ws.path, "off"));
    const said = await off.call("shell_start", { command: "true" });
    assert.deepEqual(said.content[1], {
      type: "text",
      text: "[sandbox OFF (MCP_SANDBOX=off): commands run unsandboxed]",
    });
  },
});

Deno.test({
  name: "sandboxed: the first result says so in a block of its own; the job's text reads as always",
  ignore: !bwrapUsable,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(
      createServer({ workspace: new Workspace({ cwd: ws.path }), serverEnv: Deno.env.toObject() }),
    );
    const first = await c.call("shell_run", { command: "echo hi" });
    assert.match(
      first.content[0].type === "text" ? first.content[0].text : "",
      /^exit 0 after \d+\.\ds\nhi$/,
    );
    assert.deepEqual(first.content[1], {
      type: "text",
      // In-process under the test runner (--allow-net=127.0.0.1): the proxy cannot listen on a unix socket,
      // so the allow-list falls back to no network, and says why.
      text: "[sandbox on: writes only in the workspace; network off (the proxy needs --allow-net)]",
    });
  },
});

Deno.test({
  name: "stdio: the log says the mode in force and why at start",
  ignore: isWindows,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using server = await spawnShellProcess({ cwd: ws.path, env: { MCP_SANDBOX: "off" } });
    const said = /shell-mcp: sandbox OFF \(MCP_SANDBOX=off\): jobs run with all of the user's rights/;
    await waitFor("the log line", () => said.test(server.stderr()));
  },
});

Deno.test({
  name: "doctor's view of the sandbox creates nothing",
  ignore: !bwrapUsable,
  fn: async () => {
    await using ws = await tempWorkspace();
    // In a process of its own: what it made would carry its pid, which no other test's folders can.
    const module = new URL("../../../lib/sandbox/sandbox.ts", import.meta.url).href;
    const script = `import { Sandbox } from ${JSON.stringify(module)};
const sandbox = new Sandbox({ env: Deno.env.toObject(), inspect: true,
  workspace: { roots: () => Promise.resolve({ roots: [${JSON.stringify(ws.path)}], allowDirs: [] }) } });
const status = await sandbox.status();
await sandbox.close();
console.log(JSON.stringify({ pid: Deno.pid, active: status.active, summary: status.summary }));`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--quiet", script],
      stderr: "inherit",
    })
      .output();
    assert.ok(out.success);
    const { pid, active, summary } = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(active, true);
    assert.match(summary, /^sandbox on \(bubblewrap [\d.]+, mode auto, the default\)/);
    const parent = `/tmp/continue-mcp-sandbox-${Deno.uid()}`;
    const names = (await Array.fromAsync(Deno.readDir(parent)).catch(() => [])).map((entry) => entry.name);
    assert.deepEqual(names.filter((name) => name.split("-")[1] === String(pid)), []);
    assert.deepEqual(await Array.fromAsync(Deno.readDir(ws.path)), []);
  },
});
