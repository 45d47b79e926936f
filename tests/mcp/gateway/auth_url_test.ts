/**
 * `gateway-mcp auth` opens only web pages: an authorization server whose metadata names a `file:` (or any
 * other non-web) authorization_endpoint, or plain http to another machine, is refused before the browser
 * opener runs. On Windows and macOS the opener hands any scheme to its handler (a `.desktop` or `.url`
 * file from a download folder, a custom protocol), so the URL a remote server names must not reach it.
 */
import assert from "node:assert/strict";
import { parseConfig } from "../../../mcp/gateway/config.ts";
import { authorizationUrlRefusal, authorizeServer } from "../../../mcp/gateway/oauth/authorize.ts";
import { listServers, runArgs } from "../../../tools/catalog.ts";
import { isWindows, os } from "../../../lib/platform/mod.ts";
import { openUrlArgv } from "../../../lib/platform/desktop.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { startOAuthLab } from "./_remote/oauth_lab.ts";

Deno.test({
  name:
    "gateway-mcp auth: a file: authorization_endpoint is refused, naming scheme and server; the opener never runs",
  ignore: isWindows,
}, async () => {
  await using dir = await tempWorkspace({
    "bin/": "",
    "payload/x.desktop": "[Desktop Entry]\nExec=touch pwned\n",
  });
  await using lab = startOAuthLab({ authorizationEndpoint: `file://${dir.join("payload/x.desktop")}` });
  const file = dir.join("gateway.jsonc");
  await Deno.writeTextFile(file, JSON.stringify({ mcpServers: { lab: { url: lab.mcpUrl } } }));
  // A logging stand-in for the platform's opener (xdg-open; open on macOS), alone on PATH.
  const opener = dir.join(`bin/${openUrlArgv(os, "https://x")[0]}`);
  const opened = dir.join("opened.log");
  await Deno.writeTextFile(opener, `#!/bin/sh\necho "$@" >> '${opened}'\n`);
  await Deno.chmod(opener, 0o755);
  const gateway = listServers().find((server) => server.name === "gateway")!;
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [...runArgs(gateway), "auth", "lab", "--config", file],
    env: { XDG_CONFIG_HOME: dir.join("xdg"), PATH: dir.join("bin") },
    stdin: "null",
  }).output();
  const text = new TextDecoder().decode(stderr);
  assert.equal(code, 1, text);
  assert.equal(stdout.length, 0);
  assert.match(text, /authorization URL of "lab" .*scheme "file:"/);
  assert.doesNotMatch(text, /Open this URL/);
  await assert.rejects(Deno.stat(opened), Deno.errors.NotFound, "the opener was called");
  assert.equal(lab.counts.authorizations, 0);
});

Deno.test("gateway-mcp auth: plain http to another machine is refused before the opener is called", async () => {
  await using lab = startOAuthLab({ authorizationEndpoint: "http://auth.example.com/authorize" });
  await using dir = await tempWorkspace();
  const calls: URL[] = [];
  await assert.rejects(
    authorizeServer({
      config: parseConfig(JSON.stringify({ mcpServers: { lab: { url: lab.mcpUrl } } }), "gateway.jsonc", {}),
      name: "lab",
      tokenDir: dir.path,
      open: (url) => {
        calls.push(url);
        return Promise.resolve();
      },
      say() {},
    }),
    /authorization URL of "lab" .*http: to "auth\.example\.com"/,
  );
  assert.deepEqual(calls, []);
});

Deno.test("gateway-mcp auth: which authorization URLs may be opened", () => {
  for (
    const ok of [
      "https://auth.example.com/a?x=1",
      "http://127.0.0.1:8080/a",
      "http://localhost/a",
      "http://[::1]:9/a",
    ]
  ) {
    assert.equal(authorizationUrlRefusal(new URL(ok)), undefined, ok);
  }
  for (
    const bad of [
      "file:///tmp/x.desktop",
      "http://auth.example.com/a",
      "http://127.0.0.1.evil.example/a",
      "smb://host/share",
      "ms-settings:privacy",
      "javascript:alert(1)",
    ]
  ) {
    assert.ok(authorizationUrlRefusal(new URL(bad)), bad);
  }
});
