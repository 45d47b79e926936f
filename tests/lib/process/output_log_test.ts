import assert from "node:assert/strict";
import { incompleteUtf8Tail, OutputLog } from "../../../lib/process/output_log.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const bytes = (s: string) => new TextEncoder().encode(s);

Deno.test("OutputLog keeps everything below its limits and splits streams in arrival order", () => {
  const log = new OutputLog();
  log.append("stdout", bytes("a1\n"));
  log.append("stderr", bytes("e1\n"));
  log.append("stdout", bytes("a2\n"));
  const slice = log.read(0);
  assert.equal(text(slice.stdout), "a1\na2\n");
  assert.equal(text(slice.stderr), "e1\n");
  assert.deepEqual([slice.dropped, slice.from, slice.next, slice.last], [0, 0, 9, "stdout"]);
  assert.equal(text(log.read(3).stdout), "a2\n");
  assert.equal(log.read(9).next, 9);
});

Deno.test("OutputLog keeps the head and a rolling tail, and counts what it dropped", () => {
  const log = new OutputLog({ headBytes: 10, tailBytes: 16 });
  const all = Array.from({ length: 100 }, (_, i) => String.fromCharCode(65 + (i % 26))).join("");
  for (let i = 0; i < all.length; i += 7) log.append("stdout", bytes(all.slice(i, i + 7)));
  assert.equal(log.total, 100);
  assert.equal(log.dropped, 100 - 10 - 16);
  const head = log.read(0);
  assert.equal(text(head.stdout), all.slice(0, 10));
  assert.equal(head.next, 10);
  const tail = log.read(head.next);
  assert.equal(tail.dropped, 74);
  assert.equal(text(tail.stdout), all.slice(84));
  assert.equal(tail.next, 100);
  // A cursor inside the kept tail reads from there, nothing dropped.
  assert.equal(text(log.read(90).stdout), all.slice(90));
  assert.equal(log.read(90).dropped, 0);
});

Deno.test("OutputLog reads in pages of any size return each byte exactly once", () => {
  const log = new OutputLog({ headBytes: 64, tailBytes: 4096 });
  let expected = { stdout: "", stderr: "" };
  for (let i = 0; i < 300; i++) {
    const stream = i % 3 ? "stdout" : "stderr";
    log.append(stream, bytes(`${i};`));
    expected = { ...expected, [stream]: expected[stream] + `${i};` };
  }
  for (const page of [1, 7, 64, 1000]) {
    let cursor = 0;
    const seen = { stdout: "", stderr: "" };
    while (cursor < log.total) {
      const slice = log.read(cursor, page);
      seen.stdout += text(slice.stdout);
      seen.stderr += text(slice.stderr);
      cursor = slice.next;
    }
    assert.deepEqual(seen, expected, `page ${page}`);
  }
});

Deno.test("OutputLog survives one chunk bigger than the whole tail", () => {
  const log = new OutputLog({ headBytes: 4, tailBytes: 8 });
  log.append("stdout", bytes("0123456789abcdefghij"));
  assert.equal(text(log.read(0).stdout), "0123");
  assert.equal(text(log.read(4).stdout), "cdefghij");
  assert.equal(log.read(4).dropped, 8);
});

Deno.test("incompleteUtf8Tail finds a character cut in half", () => {
  const euro = bytes("a€"); // € is 3 bytes
  assert.equal(incompleteUtf8Tail(euro), 0);
  assert.equal(incompleteUtf8Tail(euro.subarray(0, 3)), 2);
  assert.equal(incompleteUtf8Tail(euro.subarray(0, 2)), 1);
  assert.equal(incompleteUtf8Tail(bytes("abc")), 0);
});

Deno.test("OutputLog lineStartAfter finds the first line start of the kept tail, or -1", () => {
  const log = new OutputLog({ headBytes: 4, tailBytes: 8 });
  log.append("stdout", bytes("head"));
  log.append("stdout", bytes("xxxxxx12345\n678\n")); // total 20; tail keeps offsets 12..19: "345\n678\n"
  assert.equal(log.tailStart, 12);
  assert.equal(log.lineStartAfter(5), 16);
  assert.equal(text(log.read(16).stdout), "678\n");
  assert.equal(log.lineStartAfter(12, 3), -1);
  const noNewline = new OutputLog({ headBytes: 2, tailBytes: 4 });
  noNewline.append("stderr", bytes("abcdefgh"));
  assert.equal(noNewline.lineStartAfter(0), -1);
});

Deno.test("OutputLog lastLineEnd finds the end of the last full line in the head or the kept tail", () => {
  const log = new OutputLog({ headBytes: 4, tailBytes: 8 });
  log.append("stdout", bytes("a\nbc"));
  assert.equal(log.lastLineEnd(0), 2);
  assert.equal(log.lastLineEnd(2), -1);
  log.append("stderr", bytes("xxxxxx12345\n678")); // total 19; tail keeps offsets 11..18: "2345\n678"
  assert.equal(log.lastLineEnd(0), 16);
  assert.equal(log.lastLineEnd(16), -1);
});

Deno.test("OutputLog drops nothing while the output fits in its head", () => {
  const log = new OutputLog({ headBytes: 10, tailBytes: 4 });
  log.append("stdout", bytes("abc\ndef"));
  assert.equal(log.dropped, 0);
  assert.equal(log.lineStartAfter(1), 4);
  assert.equal(text(log.peek(2, 6)), "c\nde");
});
