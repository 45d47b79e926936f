import assert from "node:assert/strict";
import { parseProcNetTcp } from "../../../lib/platform/port_listeners.ts";
import { os, portListeners } from "../../../lib/platform/mod.ts";

const HEADER =
  "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";
const REST = "00000000:00000000 00:00000000 00000000";

Deno.test("port listeners: /proc/net/tcp and tcp6 lines in the LISTEN state on the port, with their uid", () => {
  // Port 18803 is 0x4973; 127.0.0.1 is printed 0100007F (a little-endian word).
  const tcp = HEADER +
    `   0: 0100007F:4973 00000000:0000 0A ${REST} 65534        0 101 1 0000000000000000 100 0 0 10 0\n` +
    `   1: 00000000:1F90 00000000:0000 0A ${REST}     0        0 102 1 0000000000000000 100 0 0 10 0\n` +
    `   2: 0100007F:4973 0100007F:D431 01 ${REST}  1000        0 103 1 0000000000000000 20 4 30 10 -1\n` +
    `   3: 00000000:4973 00000000:0000 0A ${REST}     7        0 104 1 0000000000000000 100 0 0 10 0\n`;
  assert.deepEqual(parseProcNetTcp(tcp, 18803), [
    { address: "127.0.0.1", uid: 65534 },
    { address: "0.0.0.0", uid: 7 },
  ]);
  assert.deepEqual(parseProcNetTcp(tcp, 8080), [{ address: "0.0.0.0", uid: 0 }]);
  assert.deepEqual(parseProcNetTcp(tcp, 1), []);
  const tcp6 = HEADER +
    `   0: 00000000000000000000000001000000:4973 00000000000000000000000000000000:0000 0A ${REST} 65534 0 1\n` +
    `   1: 00000000000000000000000000000000:4973 00000000000000000000000000000000:0000 0A ${REST}  1000 0 2\n` +
    `   2: 0000000000000000FFFF00000100007F:4973 00000000000000000000000000000000:0000 0A ${REST}  1001 0 3\n`;
  assert.deepEqual(parseProcNetTcp(tcp6, 18803), [
    { address: "[::1]", uid: 65534 },
    { address: "[::]", uid: 1000 },
    { address: "[::ffff:7f00:1]", uid: 1001 },
  ]);
  assert.deepEqual(parseProcNetTcp("", 18803), []);
  assert.deepEqual(parseProcNetTcp(`${HEADER}garbage\n`, 18803), []);
});

Deno.test({
  name: "port listeners: a socket this process listens on is listed with our uid (Linux)",
  ignore: os !== "linux",
}, async () => {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const listeners = await portListeners(listener.addr.port);
  assert.deepEqual(listeners, [{ address: "127.0.0.1", uid: Deno.uid() }]);
});
