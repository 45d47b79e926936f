import assert from "node:assert/strict";
import { SCAN_CHARS } from "../../../lib/text/excerpt.ts";
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

const TOKEN = "SECRET-GW-TOKEN-0123456789abcdef";
const SECRETS = [`Bearer ${TOKEN}`, TOKEN];

function references(text: string): string {
  return Array.from(text, (char) => `&#x${char.codePointAt(0)!.toString(16)};`).join("");
}

/** Pieces of `secret` in `text`: its first four characters (what a cut leaves), or any six. */
function pieces(text: string, secret: string): string[] {
  const found = [secret.slice(0, 4)];
  for (let at = 0; at + 6 <= secret.length; at++) found.push(secret.slice(at, at + 6));
  return found.filter((piece) => text.includes(piece));
}

Deno.test("failureText: a credential written as character references is redacted wherever the cut falls", () => {
  // The finding's page, with the SDK's wording in front; the cut lands at every offset of the credential.
  for (let pad = 180; pad < 290; pad++) {
    const message = `Streamable HTTP error: Error POSTing to endpoint: <html><body><p>${"x".repeat(pad)} ` +
      `${references(TOKEN)}</p><p>${"more text ".repeat(100)}</p></body></html>`;
    const excerpt = failureText(message, SECRETS);
    assert.deepEqual(pieces(excerpt, TOKEN), [], `pad ${pad}: ${excerpt}`);
    assert.match(excerpt, /… \[[\d,]+ more characters cut\]$/);
  }
});

Deno.test("failureText: what the 64 KB scan limit cuts in two shows no piece of a secret", () => {
  const spaced = "correct horse battery staple";
  for (const secret of [references(TOKEN), TOKEN, `Bearer ${TOKEN}`, spaced]) {
    for (let at = 1; at < secret.length; at++) {
      // A comment hides the first 64 KB, so the little text before the limit is all the excerpt shows.
      const filler = SCAN_CHARS - "<html><!--".length - "--> a ".length - at;
      const page = `<html><!--${"c".repeat(filler)}--> a ${secret}${" tail".repeat(100)}`;
      const excerpt = failureText(page, [...SECRETS, spaced]);
      const shown = secret === spaced
        ? ["corr", "horse", "batt"].filter((word) => excerpt.includes(word))
        : [];
      assert.deepEqual([...shown, ...pieces(excerpt, TOKEN)], [], `${at}: ${excerpt}`);
    }
  }
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
