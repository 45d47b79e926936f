import assert from "node:assert/strict";
import { ConfigError, parseConfig } from "../../../mcp/gateway/config.ts";
import { endpointKey } from "../../../mcp/gateway/endpoint.ts";

const FILE = "gateway.config.json";

function transportOf(entry: unknown, env: Record<string, string> = {}) {
  return parseConfig(JSON.stringify({ mcpServers: { r: entry } }), FILE, env).servers[0].transport;
}

function errorOf(entry: unknown): string {
  try {
    parseConfig(JSON.stringify({ mcpServers: { r: entry } }), FILE, {});
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  assert.fail("expected a ConfigError");
}

Deno.test("config: a url entry is a remote server; type is inferred, or http / sse when given", () => {
  assert.deepEqual(
    transportOf({ url: "https://mcp.example.com/mcp", headers: { "X-Key": "${env:KEY}" } }, { KEY: "s3" }),
    {
      kind: "remote",
      url: "https://mcp.example.com/mcp",
      headers: { "X-Key": "s3" },
      protocol: "auto",
      oauth: {},
    },
  );
  assert.equal(transportOf({ url: "https://a.example/sse", type: "sse" }).kind, "remote");
  assert.deepEqual(
    [
      transportOf({ url: "https://a.example/mcp", type: "http" }),
      transportOf({ url: "https://a.example/mcp", type: "streamable-http" }),
      transportOf({ url: "https://a.example/sse", type: "sse" }),
    ].map((transport) => transport.kind === "remote" ? transport.protocol : ""),
    ["http", "http", "sse"],
  );
  assert.deepEqual(
    transportOf({ url: "https://a.example/mcp", oauth: { client_id: "abc", scope: "read" } }),
    {
      kind: "remote",
      url: "https://a.example/mcp",
      headers: {},
      protocol: "auto",
      oauth: { clientId: "abc", scope: "read" },
    },
  );
});

Deno.test("config: a remote entry refuses stdio keys, bad URLs, bad types and stray keys", () => {
  assert.equal(
    errorOf({ url: "https://a.example/mcp", command: "npx" }),
    `${FILE}: mcpServers.r.command: not allowed with "url": an entry either runs a "command" over stdio or reaches a "url", not both`,
  );
  assert.equal(
    errorOf({ url: "ftp://a.example/" }),
    `${FILE}: mcpServers.r.url: expected an http(s) URL, got "ftp://a.example/"`,
  );
  assert.equal(
    errorOf({ url: "not a url" }),
    `${FILE}: mcpServers.r.url: expected an http(s) URL, got "not a url"`,
  );
  assert.equal(
    errorOf({ url: "https://a.example/mcp", type: "stdio" }),
    `${FILE}: mcpServers.r.type: expected "http" or "sse" with "url", got "stdio"`,
  );
  assert.equal(
    errorOf({ command: "npx", headers: {} }),
    `${FILE}: mcpServers.r.headers: allowed only with "url" (a remote server)`,
  );
  assert.equal(
    errorOf({ builtin: "fs", url: "https://a.example/mcp" }),
    `${FILE}: mcpServers.r.url: not allowed with "builtin": a builtin runs in the gateway's process`,
  );
  assert.match(
    errorOf({ url: "https://a.example/mcp", oauth: { client: "x" } }),
    /mcpServers\.r\.oauth\.client: unknown key/,
  );
  assert.equal(
    errorOf({ url: "https://a.example/mcp", headers: { "bad header": "x" } }),
    `${FILE}: mcpServers.r.headers: "bad header" is not an HTTP header name`,
  );
});

Deno.test("config: two entries share a remote connection only with the same URL, type, headers and client", () => {
  const key = (entry: unknown) =>
    endpointKey(parseConfig(JSON.stringify({ mcpServers: { r: entry } }), FILE, {}).servers[0]);
  const base = { url: "https://a.example/mcp", headers: { A: "1", B: "2" } };
  assert.equal(key(base), key({ url: base.url, headers: { B: "2", A: "1" } }));
  assert.notEqual(key(base), key({ ...base, headers: { A: "1" } }));
  assert.notEqual(key(base), key({ ...base, type: "sse" }));
});
