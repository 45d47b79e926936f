import assert from "node:assert/strict";
import { connectionKey } from "../../../mcp/gateway/connection_key.ts";
import { builtinServer, scriptServer } from "./_config.ts";

Deno.test("connectionKey: env order does not matter, env values, args and cwd do", () => {
  const a = scriptServer("a", "fixture.ts", { env: { X: "1", Y: "2" } });
  const b = scriptServer("b", "fixture.ts", { env: { Y: "2", X: "1" } });
  assert.equal(connectionKey(a), connectionKey(b));
  assert.notEqual(
    connectionKey(a),
    connectionKey(scriptServer("c", "fixture.ts", { env: { X: "1", Y: "3" } })),
  );
  assert.notEqual(
    connectionKey(a),
    connectionKey(scriptServer("d", "silent.ts", { env: { X: "1", Y: "2" } })),
  );
  const moved = { ...a, transport: { ...a.transport, cwd: "/elsewhere" } } as typeof a;
  assert.notEqual(connectionKey(a), connectionKey(moved));
});

Deno.test("connectionKey: builtins share by server name, never with a stdio entry", () => {
  assert.equal(connectionKey(builtinServer("x", "fs")), "builtin:fs");
  assert.equal(connectionKey(builtinServer("y", "fs")), connectionKey(builtinServer("z", "fs")));
  assert.notEqual(connectionKey(builtinServer("y", "fs")), connectionKey(builtinServer("y", "hello")));
});
