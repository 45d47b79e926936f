import assert from "node:assert/strict";
import { DEFAULT_HTTP_LIMITS, parseHttpLimits } from "../../../lib/mcp/http_limits.ts";
import { parseServeArgs, UsageError } from "../../../lib/mcp/serve_args.ts";

Deno.test("http limits: each MCP_HTTP_* setting is read, only when set; durations in seconds, 0 turns one off", () => {
  assert.deepEqual(parseHttpLimits({}), {});
  assert.deepEqual(
    parseHttpLimits({
      MCP_HTTP_MAX_SESSIONS: "4",
      MCP_HTTP_UNUSED_SESSION_S: "0",
      MCP_HTTP_HEADERS_TIMEOUT_S: "0.25",
      MCP_HTTP_BODY_TIMEOUT_S: "45",
      MCP_HTTP_MAX_BODY_BYTES: "1048576",
      MCP_HTTP_MAX_CONNECTIONS: "64",
    }),
    {
      maxSessions: 4,
      unusedSessionMs: 0,
      headersTimeoutMs: 250,
      bodyTimeoutMs: 45_000,
      maxBodyBytes: 1_048_576,
      maxConnections: 64,
    },
  );
  assert.throws(
    () => parseHttpLimits({ MCP_HTTP_MAX_SESSIONS: "0" }),
    /MCP_HTTP_MAX_SESSIONS must be a whole/,
  );
  assert.throws(() => parseHttpLimits({ MCP_HTTP_BODY_TIMEOUT_S: "soon" }), /number of seconds/);
  assert.ok(DEFAULT_HTTP_LIMITS.unusedSessionMs < DEFAULT_HTTP_LIMITS.sessionIdleMs);
});

Deno.test("http limits: the serve arguments carry them, and a bad one is a usage error", () => {
  const http =
    parseServeArgs(["--http", "8808"], { MCP_HTTP_MAX_SESSIONS: "2", MCP_HTTP_SESSION_IDLE_S: "5" }).http;
  assert.equal(http?.maxSessions, 2);
  assert.equal(http?.sessionIdleMs, 5_000);
  assert.throws(() => parseServeArgs(["--http", "8808"], { MCP_HTTP_MAX_BODY_BYTES: "4MB" }), UsageError);
});
