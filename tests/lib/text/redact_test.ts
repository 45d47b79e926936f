import assert from "node:assert/strict";
import { REDACTED, redactLiterals, redactSecrets } from "../../../lib/text/redact.ts";
import { evalFinishes, moduleUrl } from "../../_support/finishes.ts";

Deno.test("redactSecrets: bearer and basic credentials, but not the prose around them", () => {
  assert.equal(redactSecrets("authorization: Bearer abc.DEF-123_x"), `authorization: ${REDACTED}`);
  assert.equal(redactSecrets("sent Bearer eyJhbGciOi9 to it"), `sent Bearer ${REDACTED} to it`);
  assert.equal(redactSecrets("Basic dXNlcjpwYXNz"), `Basic ${REDACTED}`);
  assert.equal(redactSecrets("a Bearer token is required"), "a Bearer token is required");
  assert.equal(redactSecrets("Basic authentication failed"), "Basic authentication failed");
});

Deno.test("redactSecrets: key shapes anywhere", () => {
  const keys = [
    "sk-live-4f9a8b7c6d5e",
    "sk-proj-AbCdEf123456",
    "sk_live_51HxYzAbCdEf",
    "ghp_0123456789abcdefABCDEF",
    "github_pat_11ABCDEFG0123456789",
    "glpat-abcdefghij123456",
    "xoxb-1234-5678-abcdef",
    "AKIAIOSFODNN7EXAMPLE",
    "AIzaSyA-1234567890abcdefghijklmnop",
    "npm_abcdefghijklmnopqrstuvwxyz0123",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
  ];
  for (const key of keys) assert.equal(redactSecrets(`key was ${key}.`), `key was ${REDACTED}.`, key);
  assert.equal(
    redactSecrets("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- done"),
    `${REDACTED} done`,
  );
  assert.equal(redactSecrets("disk-usage and sk-learn are words"), "disk-usage and sk-learn are words");
});

Deno.test("redactSecrets: credential pairs in query strings, JSON, headers; URL userinfo", () => {
  assert.equal(
    redactSecrets("GET /v1?api_key=abc123&q=x&token=zz9&password=hunter2 HTTP/1.1"),
    `GET /v1?api_key=${REDACTED}&q=x&token=${REDACTED}&password=${REDACTED} HTTP/1.1`,
  );
  assert.equal(
    redactSecrets(
      '{"access_token": "at-1", "refresh_token":"rt-2", "token_type": "Bearer", "max_tokens": 5}',
    ),
    `{"access_token": "${REDACTED}", "refresh_token":"${REDACTED}", "token_type": "Bearer", "max_tokens": 5}`,
  );
  assert.equal(redactSecrets("X-Api-Key: k-12345"), `X-Api-Key: ${REDACTED}`);
  assert.equal(redactSecrets("client_secret=s3cr3t"), `client_secret=${REDACTED}`);
  assert.equal(
    redactSecrets("fetch https://me:pa55@host.example/x failed"),
    `fetch https://${REDACTED}@host.example/x failed`,
  );
});

Deno.test("redactSecrets: literals, in their JSON and URL forms, longest first; redacting twice changes nothing", () => {
  const literals = ['pa"ss word!', "Bearer opaque-value", "opaque-value", "ab"];
  assert.equal(
    redactSecrets(
      'x pa"ss word! y {"p":"pa\\"ss word!"} ?p=pa%22ss%20word! Bearer opaque-value ab',
      literals,
    ),
    `x ${REDACTED} y {"p":"${REDACTED}"} ?p=${REDACTED} ${REDACTED} ab`,
  );
  const once = redactSecrets("token=abc Bearer zzzzzzzz9 sk-live-123456789 https://u:p@h/", ["abc"]);
  assert.equal(redactSecrets(once, ["abc"]), once);
});

Deno.test("redactLiterals: only the literals, credential-like words left as data", () => {
  assert.equal(
    redactLiterals("password=hunter2 and the-value", ["the-value"]),
    `password=hunter2 and ${REDACTED}`,
  );
});

Deno.test("redactSecrets: a JWT after a dash, a URL's userinfo after a dash, a pair named with dots", () => {
  const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
  assert.equal(redactSecrets(`id-${jwt} ok`), `id-${REDACTED} ok`);
  assert.equal(redactSecrets("x-https://me:pa55@host/"), `x-https://${REDACTED}@host/`);
  assert.equal(redactSecrets("app.db.password = hunter2;"), `app.db.password = ${REDACTED};`);
  assert.equal(redactSecrets('"x.token": "t-1"'), `"x.token": "${REDACTED}"`);
  assert.equal(redactSecrets("max_tokens=5 token_type=x"), "max_tokens=5 token_type=x");
});

// `\b[\w.-]*?token` (pairs), `\beyJ[A-Za-z0-9_-]{5,}\.` (JWTs) and `\b[a-z][a-z0-9+.-]*:\/\/` (userinfo)
// could start at every `-` or `.` of a run and scan to its end from each: 40 KB of `a-` took 19 s, 1 MB
// would take hours. The child is killed after 20 s (evalFinishes); the linear passes take milliseconds.
Deno.test("redactSecrets finishes on 1 MB runs built to make its patterns backtrack", async () => {
  const redact = moduleUrl("lib/text/redact.ts");
  const run = await evalFinishes(`
    import { redactSecrets } from ${JSON.stringify(redact)};
    const units = ["a-", "a.", "eyJ-", "eyJaaaaa.", "a://", "sk-", "token", "AKIA", "'a"];
    for (const unit of units) redactSecrets(unit.repeat(Math.ceil(1_000_000 / unit.length)));
    console.log(units.length);
  `);
  assert.ok(run.finished, "redacting 1 MB did not finish in 20 s");
  assert.equal(run.stdout.trim(), "9");
});
