import assert from "node:assert/strict";
import { EDGE_BYTES, idOfOversized, readLines } from "../../../lib/mcp/line_reader.ts";

/** The lines `chunks` split into under `maxBytes`: each text, or `[bytes, id]` for an overlong one. */
async function linesOf(chunks: string[], maxBytes: number): Promise<(string | [number, unknown])[]> {
  const out: (string | [number, unknown])[] = [];
  const stream = ReadableStream.from(chunks.map((chunk) => new TextEncoder().encode(chunk)));
  await readLines(stream.getReader(), maxBytes, {
    line: (bytes) => out.push(new TextDecoder().decode(bytes)),
    oversized: (bytes, head, tail) => {
      assert.ok(head.length <= EDGE_BYTES && tail.length <= EDGE_BYTES);
      out.push([bytes, idOfOversized(head, tail)]);
    },
  });
  return out;
}

Deno.test("line reader: an overlong response is reported by its size and the id it ends with, as the SDK writes it", async () => {
  const huge = JSON.stringify({ result: { text: "z".repeat(20_000) }, jsonrpc: "2.0", id: 42 });
  const pieces = huge.match(/.{1,700}/gs)!;
  assert.deepEqual(await linesOf(["a\n", ...pieces, '\n{"id":"x"}\n'], 1_000), [
    "a",
    [huge.length, 42],
    '{"id":"x"}',
  ]);
});

Deno.test("line reader: an overlong request is reported by the id it starts with; no id is undefined", async () => {
  const first = JSON.stringify({
    jsonrpc: "2.0",
    id: "big",
    method: "tools/call",
    params: { x: "y".repeat(3_000) },
  });
  const anonymous = JSON.stringify({ jsonrpc: "2.0", method: "notify", params: { x: "y".repeat(3_000) } });
  assert.deepEqual(await linesOf([`${first}\n${anonymous}\n`], 1_000), [
    [first.length, "big"],
    [anonymous.length, undefined],
  ]);
});
