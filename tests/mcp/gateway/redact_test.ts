import assert from "node:assert/strict";
import { parseConfig } from "../../../mcp/gateway/config.ts";
import {
  boundedReason,
  failureText,
  isSecretValue,
  REASON_CHARS,
  redactData,
  secretsOf,
} from "../../../mcp/gateway/redact.ts";

function entry(server: Record<string, unknown>) {
  return parseConfig(JSON.stringify({ mcpServers: { s: server } }), "gateway.jsonc", {}).servers[0];
}

Deno.test("secretsOf: header and env values, the bare credential of a scheme, OAuth secret, URL credentials", () => {
  assert.deepEqual(
    secretsOf(entry({
      url: "https://u:p%40ss@example.com/mcp?api_key=qk-123456&region=eu",
      headers: { Authorization: "Bearer tok-123456", "X-Account": "acct-7781-blue", Accept: "json" },
      oauth: { client_id: "id", client_secret: "cs-999999" },
    })).sort(),
    ["Bearer tok-123456", "acct-7781-blue", "cs-999999", "p@ss", "qk-123456", "tok-123456", "u"],
  );
  assert.deepEqual(
    secretsOf(
      entry({ command: "x", env: { GITHUB_TOKEN: "abcd", HOME_DIR: "/home/me", MODE: "production" } }),
    ),
    ["abcd"],
  );
  assert.deepEqual(secretsOf(entry({ builtin: "fs" })), []);
});

Deno.test("isSecretValue: secret names always; otherwise not what is plainly ordinary text", () => {
  assert.equal(isSecretValue("API_KEY", "abcd"), true);
  assert.equal(isSecretValue("X-Session", "s-1"), false, "too short to redact without shredding text");
  assert.equal(isSecretValue("X-Account", "correct-horse-battery"), true);
  for (
    const value of [
      "/srv/data/project",
      "C:\\work",
      "https://example.com/x",
      "8080",
      "2024-01-01",
      "production",
    ]
  ) {
    assert.equal(isSecretValue("SETTING", value), false, value);
  }
});

Deno.test("failureText and boundedReason: short, plain, redacted", () => {
  const text = failureText(
    `<html><body><p>key opaque-secret-1 &amp; Bearer zz9zz9zz9</p>${"x ".repeat(9_000)}`,
    [
      "opaque-secret-1",
    ],
  );
  assert.match(text, /^key \[redacted\] & Bearer \[redacted\] x x .*more characters cut\]$/);
  assert.ok(text.length < 400);
  const reason = boundedReason(`down: ${"y".repeat(5_000)} token=abc`, []);
  assert.ok(reason.length < REASON_CHARS + 60 && !reason.includes("abc"));
});

Deno.test("redactData: every string of a result, structured content included; nothing else changes", () => {
  const result = {
    content: [{ type: "text", text: "your key is opaque-secret-1; password=stays" }],
    structuredContent: { nested: ["opaque-secret-1", 3, null, true] },
  };
  assert.deepEqual(redactData(result, ["opaque-secret-1"]), {
    content: [{ type: "text", text: "your key is [redacted]; password=stays" }],
    structuredContent: { nested: ["[redacted]", 3, null, true] },
  });
  assert.equal(redactData(result, []), result);
});
