import assert from "node:assert/strict";
import { homeFolders } from "../../../lib/workspace/homes.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

Deno.test("homeFolders reads HOME and USERPROFILE and skips unset ones", async () => {
  await using ws = await tempWorkspace({ "h/": "" });
  assert.deepEqual(homeFolders({ HOME: ws.join("h") }), [ws.join("h")]);
  assert.deepEqual(homeFolders({ HOME: ws.join("h"), USERPROFILE: ws.join("h") }), [
    ws.join("h"),
    ws.join("h"),
  ]);
  assert.deepEqual(homeFolders({}), []);
});
