import assert from "node:assert/strict";
import { keepLineEndings } from "../../../mcp/sql/engine.ts";

Deno.test("keepLineEndings: CRLF-only input gets CRLF back, LF-only stays LF even when the backend wrote CRLF", () => {
  assert.equal(keepLineEndings("SELECT 1\r\nFROM t\r\n", "select 1\nfrom t\n"), "select 1\r\nfrom t\r\n");
  // sqlfluff on Windows writes its fixed files in text mode: `\r\n` breaks the input never had.
  assert.equal(keepLineEndings("SELECT 1\nFROM t\n", "select 1\r\nfrom t\r\n"), "select 1\nfrom t\n");
  assert.equal(keepLineEndings("SELECT 1\nFROM t\n", "select 1\nfrom t\n"), "select 1\nfrom t\n");
  // Mixed input: the backend's output is taken as it is.
  assert.equal(keepLineEndings("a\r\nb\n", "a\r\nb\n"), "a\r\nb\n");
});
