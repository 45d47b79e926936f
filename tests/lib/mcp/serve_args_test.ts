import assert from "node:assert/strict";
import { isHttpEnvName, parseServeArgs, UsageError } from "../../../lib/mcp/serve_args.ts";
import { hasBearer, isLoopback, parseListenAddress, refuseRequest } from "../../../lib/mcp/http_guard.ts";
import { compileArgs } from "../../../tools/compile.ts";

Deno.test("serve args: no flag is stdio; --http takes PORT or HOST:PORT, loopback by default", () => {
  assert.deepEqual(parseServeArgs([], {}), { rest: [] });
  assert.deepEqual(parseServeArgs(["--config", "g.json"], {}), { rest: ["--config", "g.json"] });
  assert.deepEqual(parseServeArgs(["--http", "8808"], {}).http, {
    listen: { hostname: "127.0.0.1", port: 8808 },
    auth: { kind: "file" },
    stateless: false,
  });
  assert.deepEqual(parseListenAddress("localhost:1"), { hostname: "localhost", port: 1 });
  assert.deepEqual(parseListenAddress("[::1]:8808"), { hostname: "::1", port: 8808 });
  assert.equal(parseServeArgs(["--http=9000", "--stateless"], {}).http?.stateless, true);
  assert.equal(parseServeArgs(["--http=9000"], { MCP_HTTP_STATELESS: "1" }).http?.stateless, true);
  assert.throws(() => parseServeArgs(["--http", "99999"], {}), /expected PORT or HOST:PORT/);
  assert.throws(() => parseServeArgs(["--http"], {}), UsageError);
  assert.throws(() => parseServeArgs(["--stateless"], {}), /HTTP mode only/);
  assert.equal(parseServeArgs(["--http=1"], { MCP_HTTP_SESSION_IDLE_S: "0" }).http?.sessionIdleMs, 0);
  assert.equal(parseServeArgs(["--http=1"], { MCP_HTTP_SESSION_IDLE_S: "90" }).http?.sessionIdleMs, 90_000);
  assert.throws(() => parseServeArgs(["--http=1"], { MCP_HTTP_SESSION_IDLE_S: "soon" }), /whole number/);
});

Deno.test("serve args: every bind has a token (MCP_HTTP_TOKEN, else the token file); --no-auth on loopback only", () => {
  const auth = (args: string[], env: Record<string, string> = {}) => parseServeArgs(args, env).http?.auth;
  assert.deepEqual(auth(["--http", "0.0.0.0:8808"]), { kind: "file" });
  assert.deepEqual(auth(["--http", "0.0.0.0:8808"], { MCP_HTTP_TOKEN: "t" }), { kind: "env", token: "t" });
  assert.deepEqual(auth(["--http", "8808", "--no-auth"]), { kind: "none" });
  assert.deepEqual(auth(["--http", "[::1]:8808", "--no-auth"]), { kind: "none" });
  assert.throws(() => auth(["--http", "0.0.0.0:8808", "--no-auth"]), /Refusing --no-auth on "0\.0\.0\.0"/);
  assert.throws(() => auth(["--http", "8808", "--no-auth"], { MCP_HTTP_TOKEN: "t" }), /contradict/);
  assert.throws(() => auth(["--no-auth"]), /--no-auth applies to HTTP mode only/);
  assert.throws(() => auth(["--http", "8808"], { MCP_HTTP_TOKEN: "with space" }), /without spaces/);
  assert.ok(isHttpEnvName("MCP_HTTP_TOKEN") && isHttpEnvName("mcp_http_token") && !isHttpEnvName("MCP_LOG"));
  assert.ok(isLoopback("127.0.0.2") && isLoopback("::1") && isLoopback("LOCALHOST"));
  assert.ok(!isLoopback("0.0.0.0") && !isLoopback("::") && !isLoopback("192.168.1.2"));
});

Deno.test("guard: the bearer scheme in any case and with extra spaces passes; a wrong token of any length does not", async () => {
  const token = "0123456789abcdef0123456789abcdef-_xyz";
  for (const header of [`Bearer ${token}`, `bearer ${token}`, `BEARER   ${token}  `, `Bearer\t${token}`]) {
    assert.equal(await hasBearer(header, token), true, header);
  }
  const wrong = [
    null,
    "",
    "Bearer",
    "Bearer ",
    token,
    `Basic ${token}`,
    `Bearer ${token.slice(0, -1)}X`,
    `Bearer ${token}X`,
    `Bearer ${token.slice(0, 10)}`,
    `Bearer ${token} ${token}`,
  ];
  for (const header of wrong) assert.equal(await hasBearer(header, token), false, String(header));
});

Deno.test("guard: a non-loopback bind checks the token and the Origin, not the Host", async () => {
  const options = { listen: { hostname: "0.0.0.0", port: 8808 }, port: 8808, token: "t" };
  const request = (headers: Record<string, string>) => new Request("http://box:8808/mcp", { headers });
  assert.equal(
    await refuseRequest(request({ host: "box:8808", authorization: "Bearer t" }), options),
    undefined,
  );
  assert.equal(
    (await refuseRequest(request({ host: "box:8808", authorization: "Bearer x" }), options))?.status,
    401,
  );
  const foreign = request({ host: "box:8808", authorization: "Bearer t", origin: "http://evil.example" });
  assert.equal((await refuseRequest(foreign, options))?.status, 403);
  assert.equal(
    await refuseRequest(
      request({ host: "box:8808", authorization: "Bearer t", origin: "http://box:8808" }),
      options,
    ),
    undefined,
  );
});

Deno.test("compile: network access, and what the token file needs, only when --allow-net asks for HTTP", () => {
  const server = { name: "hello", entry: "main.ts", summary: "", permissions: ["--allow-read"] };
  const flags = (permissions: string[], allowNet?: string) =>
    compileArgs({ ...server, permissions }, { output: "out", allowNet }).filter((arg) =>
      arg.startsWith("--allow")
    );
  assert.deepEqual(flags(["--allow-read"]), ["--allow-read"]);
  assert.deepEqual(flags(["--allow-read"], "127.0.0.1"), [
    "--allow-read",
    "--allow-net=127.0.0.1",
    "--allow-sys=uid",
    "--allow-write",
  ]);
  assert.deepEqual(flags(["--allow-read"], ""), [
    "--allow-read",
    "--allow-net",
    "--allow-sys=uid",
    "--allow-write",
  ]);
  // A scoped flag next to the server's own unscoped one would narrow it (Deno merges them): none is added.
  assert.deepEqual(flags(["--allow-write", "--allow-net"], "127.0.0.1"), [
    "--allow-write",
    "--allow-net",
    "--allow-sys=uid",
  ]);
});
