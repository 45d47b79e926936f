import assert from "node:assert/strict";
import { parseServeArgs, UsageError } from "../../../lib/mcp/serve_args.ts";
import { isLoopback, parseListenAddress, refuseRequest } from "../../../lib/mcp/http_guard.ts";
import { compileArgs } from "../../../tools/compile.ts";

Deno.test("serve args: no flag is stdio; --http takes PORT or HOST:PORT, loopback by default", () => {
  assert.deepEqual(parseServeArgs([], {}), { rest: [] });
  assert.deepEqual(parseServeArgs(["--config", "g.json"], {}), { rest: ["--config", "g.json"] });
  assert.deepEqual(parseServeArgs(["--http", "8808"], {}).http, {
    listen: { hostname: "127.0.0.1", port: 8808 },
    token: undefined,
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

Deno.test("serve args: a non-loopback bind needs MCP_HTTP_TOKEN", () => {
  assert.throws(() => parseServeArgs(["--http", "0.0.0.0:8808"], {}), /Refusing to listen on "0\.0\.0\.0"/);
  assert.equal(parseServeArgs(["--http", "0.0.0.0:8808"], { MCP_HTTP_TOKEN: "t" }).http?.token, "t");
  assert.ok(isLoopback("127.0.0.2") && isLoopback("::1") && isLoopback("LOCALHOST"));
  assert.ok(!isLoopback("0.0.0.0") && !isLoopback("::") && !isLoopback("192.168.1.2"));
});

Deno.test("guard: a non-loopback bind checks the token and the Origin, not the Host", () => {
  const options = { listen: { hostname: "0.0.0.0", port: 8808 }, port: 8808, token: "t" };
  const request = (headers: Record<string, string>) => new Request("http://box:8808/mcp", { headers });
  assert.equal(refuseRequest(request({ host: "box:8808", authorization: "Bearer t" }), options), undefined);
  assert.equal(refuseRequest(request({ host: "box:8808", authorization: "Bearer x" }), options)?.status, 401);
  assert.equal(
    refuseRequest(
      request({ host: "box:8808", authorization: "Bearer t", origin: "http://evil.example" }),
      options,
    )
      ?.status,
    403,
  );
  assert.equal(
    refuseRequest(
      request({ host: "box:8808", authorization: "Bearer t", origin: "http://box:8808" }),
      options,
    ),
    undefined,
  );
});

Deno.test("compile: network access only when --allow-net asks for it", () => {
  const server = { name: "hello", entry: "main.ts", summary: "", permissions: ["--allow-read"] };
  assert.ok(!compileArgs(server, { output: "out" }).some((arg) => arg.startsWith("--allow-net")));
  assert.ok(compileArgs(server, { output: "out", allowNet: "127.0.0.1" }).includes("--allow-net=127.0.0.1"));
  assert.ok(compileArgs(server, { output: "out", allowNet: "" }).includes("--allow-net"));
});
