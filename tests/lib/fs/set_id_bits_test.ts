import assert from "node:assert/strict";
import { bitsLostByWrite } from "../../../lib/fs/set_id_bits.ts";

Deno.test("bitsLostByWrite: root and a file without setuid/setgid lose nothing", () => {
  assert.equal(bitsLostByWrite(0o6755, 1000, { uid: 0, inGroup: false }), 0);
  assert.equal(bitsLostByWrite(0o1777, 0, { uid: 1000, inGroup: false }), 0);
  assert.equal(bitsLostByWrite(0o755, 0, { uid: 1000, inGroup: false }), 0);
});

Deno.test("bitsLostByWrite: the owner sets setuid again, and setgid only as a member of the file's group", () => {
  assert.equal(bitsLostByWrite(0o6755, 1000, { uid: 1000, inGroup: true }), 0);
  assert.equal(bitsLostByWrite(0o4755, 1000, { uid: 1000, inGroup: false }), 0);
  assert.equal(bitsLostByWrite(0o6755, 1000, { uid: 1000, inGroup: false }), 0o2000);
  assert.equal(bitsLostByWrite(0o2664, 1000, { uid: 1000, inGroup: false }), 0o2000);
});

Deno.test("bitsLostByWrite: anyone else (a group member too) could set neither bit again", () => {
  assert.equal(bitsLostByWrite(0o2775, 0, { uid: 1000, inGroup: true }), 0o2000);
  assert.equal(bitsLostByWrite(0o4775, 0, { uid: 1000, inGroup: true }), 0o4000);
  assert.equal(bitsLostByWrite(0o6777, 0, { uid: 1000, inGroup: false }), 0o6000);
});
