import assert from "node:assert/strict";
import { ConfigError, parseConfig } from "../../../mcp/gateway/config.ts";
import { endpointKey } from "../../../mcp/gateway/endpoint.ts";
import { resolve } from "node:path";

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
      configFile: resolve(FILE),
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
      configFile: resolve(FILE),
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

Deno.test("config: remote entries never share a connection (each has its own tokens); one entry's key is stable", () => {
  const keys = (servers: Record<string, unknown>, file = FILE) =>
    parseConfig(JSON.stringify({ mcpServers: servers }), file, {}).servers.map(endpointKey);
  const base = { url: "https://a.example/mcp", headers: { A: "1", B: "2" } };
  const [work, home] = keys({ work: base, home: base });
  assert.notEqual(work, home, "two entries for one URL may be two accounts");
  assert.equal(keys({ work: { url: base.url, headers: { B: "2", A: "1" } } })[0], work);
  assert.notEqual(keys({ work: base }, "other.json")[0], work);
  assert.notEqual(keys({ work: { ...base, headers: { A: "1" } } })[0], work);
  assert.notEqual(keys({ work: { ...base, type: "sse" } })[0], work);
});
