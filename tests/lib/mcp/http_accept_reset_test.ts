import assert from "node:assert/strict";
import { spawnHttp } from "../../_support/http.ts";
import { INITIALIZE_BODY, postStatus } from "../../_support/raw_http.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

/**
 * Connects and at once resets (SO_LINGER 0, then close), `count` times: each connection is queued complete
 * and then torn down, so the server's accept() of it fails (ENOTCONN on Linux). Deno cannot set SO_LINGER,
 * so python3 does it, as the attacker did.
 */
const RESETS = `
import socket, struct, sys
for _ in range(int(sys.argv[2])):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.connect(("127.0.0.1", int(sys.argv[1])))
    s.close()
`;

async function resetConnections(port: number, count: number): Promise<void> {
  const { success, stderr } = await new Deno.Command("python3", {
    args: ["-c", RESETS, `${port}`, `${count}`],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.ok(success, new TextDecoder().decode(stderr));
}

Deno.test({
  name:
    "http listener: connections reset before accept are skipped at once; a client with the token is still answered",
  ignore: isWindows,
}, async () => {
  await using server = await spawnHttp("hello");
  await resetConnections(Number(new URL(server.url).port), 100);
  // Each reset used to cost a backoff of up to 1 s (100 of them: ~90 s). The signal is a hang guard far
  // above the milliseconds this takes, not a speed check.
  const status = await postStatus(server.url, INITIALIZE_BODY, server.headers, AbortSignal.timeout(30_000));
  assert.equal(status, 200);
  const stderr = await server.stop();
  // Some resets did reach accept() (the attack happened), and the flood is reported once, not per connection.
  assert.equal(stderr.match(/failed before it was accepted/g)?.length, 1, stderr);
  assert.doesNotMatch(stderr, /cannot accept connections/, stderr);
});
