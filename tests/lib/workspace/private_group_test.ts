import assert from "node:assert/strict";
import { groupsOnlyOf } from "../../../lib/workspace/private_group.ts";

const PASSWD = [
  "root:x:0:0:root:/root:/bin/bash",
  "alice:x:1000:1000::/home/alice:/bin/sh",
  "bob:x:1001:100::/home/bob:/bin/sh",
  "carol:x:1002:100::/home/carol:/bin/sh",
].join("\n");
const GROUP = ["root:x:0:", "users:x:100:", "alice:x:1000:", "dev:x:2000:alice,bob", "solo:x:3000:alice"]
  .join(
    "\n",
  );

Deno.test("groupsOnlyOf: a user's private group and a group listing only them; never a shared one", () => {
  assert.deepEqual([...groupsOnlyOf(1000, PASSWD, GROUP)].sort(), [1000, 3000]);
  assert.deepEqual([...groupsOnlyOf(0, PASSWD, GROUP)], [0]);
  // bob shares users (100) with carol as their primary group, and dev with alice.
  assert.deepEqual([...groupsOnlyOf(1001, PASSWD, GROUP)], []);
  assert.deepEqual([...groupsOnlyOf(4242, PASSWD, GROUP)], []);
});
