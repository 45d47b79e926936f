import assert from "node:assert/strict";
import { allowlist } from "../../../lib/sandbox/proxy_allowlist.ts";
import { DEFAULT_DOMAINS } from "../../../lib/sandbox/proxy_domains.ts";
import { addGrant, grantsDir } from "../../../lib/sandbox/proxy_grants.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

Deno.test("allowlist: defaults, the user's entries, each root's remotes and stored grants, each once", async () => {
  await using ws = await tempWorkspace({
    "repo/.git/config": '[remote "origin"]\n\turl = git@git.corp.test:team/repo.git\n',
    "other/": "",
  });
  const dir = grantsDir(ws.join("config"));
  await addGrant(dir, ws.join("repo"), "granted.test");
  await addGrant(dir, ws.join("elsewhere"), "not-for-us.test");
  const list = await allowlist({
    user: ["*.corp.test", "github.com"],
    workspaceRoots: [ws.join("repo"), ws.join("other")],
    grantsDir: dir,
  });
  assert.deepEqual(list, [...DEFAULT_DOMAINS, "*.corp.test", "git.corp.test", "granted.test"]);
  assert.deepEqual(await allowlist({ user: ["only.test"], defaults: false }), ["only.test"]);
});
