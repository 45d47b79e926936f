import assert from "node:assert/strict";
import { leaseNewlineCounter, newlineCounter } from "../../../mcp/fs/newline_count.ts";

Deno.test("newlineCounter counts bytes exactly, SIMD and indexOf alike, at any alignment", () => {
  const simd = newlineCounter(1024);
  const plain = newlineCounter(1024, { simd: false });
  assert.equal(simd.kind, "simd", "Deno's V8 runs WebAssembly SIMD");
  assert.equal(plain.kind, "indexOf");
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let trial = 0; trial < 300; trial++) {
    for (let i = 0; i < 1024; i++) {
      const r = random();
      simd.buffer[i] = plain.buffer[i] = r < 0.1 ? 10 : r < 0.15 ? 13 : Math.floor(random() * 256);
    }
    const from = Math.floor(random() * 64);
    const to = from + Math.floor(random() * (1024 - from));
    for (const byte of [10, 13]) {
      let expected = 0;
      for (let i = from; i < to; i++) if (simd.buffer[i] === byte) expected++;
      assert.equal(simd.count(from, to, byte), expected, `simd ${from}-${to} byte ${byte}`);
      assert.equal(plain.count(from, to, byte), expected, `plain ${from}-${to} byte ${byte}`);
    }
  }
});

Deno.test("a leased counter is reused once given back, never while another lease holds it", () => {
  let first: Uint8Array;
  {
    using a = leaseNewlineCounter(4096);
    using b = leaseNewlineCounter(4096);
    assert.notEqual(a.buffer, b.buffer, "two leases at once share no buffer");
    first = a.buffer;
  }
  using again = leaseNewlineCounter(4096);
  using other = leaseNewlineCounter(4096);
  assert.ok([again.buffer, other.buffer].includes(first), "a given-back counter is used again");
  using fallback = leaseNewlineCounter(4096, { simd: false });
  assert.equal(fallback.kind, "indexOf");
});
