/**
 * A stateless HTTP server builds a fresh instance per request and cleans it up when the answer is sent:
 * for the shell that kills every job at the end of the call that started it. It refuses to run so.
 * @module
 */
import assert from "node:assert/strict";
import { spawnHttp } from "../../_support/http.ts";

const REFUSAL = /exited before listening:[\s\S]*Cannot serve shell-mcp stateless: .*drop --stateless/;

Deno.test("http: the shell server refuses --stateless, whose requests would each kill the jobs they start", async () => {
  await assert.rejects(spawnHttp("shell", { args: ["--stateless"] }), REFUSAL);
});

Deno.test("http: the shell server refuses MCP_HTTP_STATELESS=1 alike", async () => {
  await assert.rejects(spawnHttp("shell", { env: { MCP_HTTP_STATELESS: "1" } }), REFUSAL);
});
