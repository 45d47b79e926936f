import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { dirname } from "node:path";
import {
  BRIDGE_SOCKET_INSIDE,
  bridgePieces,
  findSocat,
  proxyEnv,
} from "../../../lib/sandbox/proxy_bridge.ts";
import { findOnPath } from "../../../lib/platform/which.ts";
import { os } from "../../../lib/platform/mod.ts";

const bwrap = os === "linux" ? await findOnPath("bwrap") : null;
const socat = os === "linux" ? await findSocat() : null;
const curl = await findOnPath("curl");
const missing = !bwrap || !socat || !curl;

/** The proxy in its own process (it needs a unix socket), until disposed; denials collected from its output. */
async function proxyProcess(config: { domains: string[]; hosts: Record<string, string> }) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--quiet",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-net",
      fileURLToPath(new URL("./proxy_host.ts", import.meta.url)),
      JSON.stringify(config),
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).values();
  const denied: { host: string; reason: string }[] = [];
  let pending = "";
  const next = async (): Promise<Record<string, unknown>> => {
    while (!pending.includes("\n")) {
      const { value, done } = await lines.next();
      if (done) throw new Error("the proxy process ended");
      pending += value;
    }
    const line = pending.slice(0, pending.indexOf("\n"));
    pending = pending.slice(line.length + 1);
    return JSON.parse(line);
  };
  const socket = (await next()).socket as string;
  return {
    socket,
    denied,
    /** Reads the denial events printed so far (the job has ended: they were printed before its 403s). */
    async collect(count: number) {
      while (denied.length < count) denied.push((await next()).denied as { host: string; reason: string });
    },
    async [Symbol.asyncDispose]() {
      await child.stdin.close();
      await child.status;
      for await (const _ of lines) { /* drain */ }
    },
  };
}

async function inSandbox(
  socket: string,
  argv: string[],
  options: { stdin?: string; inside?: string } = {},
): Promise<{ output: string; code: number }> {
  const pieces = bridgePieces(socket, socat!, argv, options.inside);
  const setenv = Object.entries(pieces.env).flatMap(([name, value]) => ["--setenv", name, value]);
  const child = new Deno.Command(bwrap!, {
    args: [
      ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
      ...["--unshare-net", "--unshare-pid", "--die-with-parent", "--new-session"],
      ...(options.inside ? ["--tmpfs", "/run", "--tmpfs", dirname(socket)] : []),
      ...pieces.bwrapArgs,
      ...setenv,
      ...pieces.argv,
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin ?? ""));
  await writer.close();
  const output = await child.output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  return { output: text, code: output.code };
}

Deno.test({
  name: "bridge: a sandboxed curl reaches an allowed host through the proxy, and nothing else",
  ignore: missing,
  fn: async () => {
    await using target = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () => new Response("through the proxy\n"),
    );
    const port = target.addr.port;
    await using proxy = await proxyProcess({
      domains: ["allowed.test"],
      hosts: { "allowed.test": "127.0.0.1", "evil.test": "127.0.0.1" },
    });
    const { output } = await inSandbox(proxy.socket, [
      "/bin/sh",
      "-c",
      [
        `curl -sS --max-time 20 http://allowed.test:${port}/; echo "plain rc=$?"`,
        `curl -sS --max-time 20 --proxytunnel http://allowed.test:${port}/; echo "tunnel rc=$?"`,
        `curl -sS --max-time 20 -o /dev/null -w '%{http_code}\\n' http://evil.test:${port}/; echo "evil rc=$?"`,
        `curl -sS --max-time 20 --proxytunnel http://evil.test:${port}/; echo "evil tunnel rc=$?"`,
        `curl -sS --max-time 20 --noproxy '*' http://127.0.0.1:${port}/; echo "direct rc=$?"`,
      ].join("\n"),
    ]);
    assert.match(output, /through the proxy\nplain rc=0\n/);
    assert.match(output, /through the proxy\ntunnel rc=0\n/);
    assert.match(output, /403\nevil rc=0\n/);
    assert.match(output, /evil tunnel rc=56\n/, output);
    assert.match(output, /direct rc=7\n/, output);
    assert.equal(output.match(/through the proxy/g)?.length, 2, output);
    await proxy.collect(1);
    assert.deepEqual(proxy.denied.map((event) => [event.host, event.reason]), [["evil.test", "not_listed"]]);
  },
});

Deno.test({
  name: "bridge: the job's exit code, stdin and arguments pass through the bridge untouched",
  ignore: missing,
  fn: async () => {
    await using proxy = await proxyProcess({ domains: [], hosts: {} });
    const args = ["a b", "$HOME", "`x`", "'q'", ";", "-c"];
    const printed = await inSandbox(proxy.socket, ["/usr/bin/printf", "%s|", ...args]);
    assert.deepEqual(printed, { output: "a b|$HOME|`x`|'q'|;|-c|", code: 0 });
    const echoed = await inSandbox(proxy.socket, ["/bin/sh", "-c", "cat; exit 3"], { stdin: "from stdin\n" });
    assert.deepEqual(echoed, { output: "from stdin\n", code: 3 });
  },
});

Deno.test("proxyEnv: every usual proxy variable points at the bridge; loopback stays direct", () => {
  const env = proxyEnv("http://127.0.0.1:3128");
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "npm_config_https_proxy"]) {
    assert.equal(env[name], "http://127.0.0.1:3128", name);
  }
  assert.equal(env.NO_PROXY, "localhost,127.0.0.1,::1");
  assert.match(env.JAVA_TOOL_OPTIONS, /-Dhttps\.proxyPort=3128/);
});

Deno.test("bridgePieces: a socket path socat would misread is refused", () => {
  assert.throws(() => bridgePieces("/tmp/a,b/s.sock", "/usr/bin/socat", ["true"]), /socat cannot take/);
  assert.throws(() => bridgePieces("/tmp/a:b/s.sock", "/usr/bin/socat", ["true"]), /socat cannot take/);
});

Deno.test({
  name: "bridge: with the socket at a fixed path on a tmpfs, the job reaches its own socket and no other",
  ignore: missing,
  fn: async () => {
    await using target = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () => new Response("own socket\n"),
    );
    await using proxy = await proxyProcess({
      domains: ["allowed.test"],
      hosts: { "allowed.test": "127.0.0.1" },
    });
    const { output } = await inSandbox(proxy.socket, [
      "/bin/sh",
      "-c",
      `curl -sS --max-time 20 http://allowed.test:${target.addr.port}/; ls ${dirname(proxy.socket)}; ls /run`,
    ], { inside: BRIDGE_SOCKET_INSIDE });
    assert.equal(output, "own socket\ncontinue-mcp\n");
  },
});
