import assert from "node:assert/strict";
import { gitRemoteHosts, hostOfGitUrl, remoteHostsOf } from "../../../lib/sandbox/git_remotes.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

Deno.test("hostOfGitUrl: https, ssh, git and scp-like forms; local paths have no host", () => {
  const cases: [string, string | null][] = [
    ["https://github.com/o/r.git", "github.com"],
    ["https://user:token@GitLab.Example.com:8443/o/r", "gitlab.example.com"],
    ["ssh://git@bitbucket.org:22/o/r.git", "bitbucket.org"],
    ["git+ssh://git@host.test/o/r", "host.test"],
    ["git://git.kernel.org/pub/scm/git/git.git", "git.kernel.org"],
    ["git@github.com:o/r.git", "github.com"],
    ["github.com:o/r.git", "github.com"],
    ["https://[2001:db8::1]:8080/r", "2001:db8::1"],
    ["/srv/git/r.git", null],
    ["../r.git", null],
    ["./a:b", null],
    ["file:///srv/r.git", null],
    ["C:\\repos\\r.git", null],
  ];
  for (const [url, host] of cases) assert.equal(hostOfGitUrl(url), host, url);
});

Deno.test("remoteHostsOf: url and pushurl of every remote, after insteadOf; other sections ignored", () => {
  const config = `
[core]
  bare = false
  url = https://not-a-remote.test/
[remote "origin"]
  url = git@github.com:o/r.git
  fetch = +refs/heads/*:refs/remotes/origin/*
[remote "upstream"]
  URL = "https://gitlab.test/o/r.git" ; a comment
  pushurl = ssh://push.test/o/r.git
[url "https://mirror.test/"]
  insteadOf = gh:
[url "ssh://pushmirror.test/"]
  pushInsteadOf = https://fetch.test/
[remote "short"]
  url = gh:o/r
[remote "split"]
  url = https://fetch.test/o/r
[branch "main"]
  remote = origin
`;
  assert.deepEqual(remoteHostsOf(config), [
    "github.com",
    "gitlab.test",
    "push.test",
    "mirror.test",
    "fetch.test",
    "pushmirror.test",
  ]);
});

Deno.test("gitRemoteHosts: found from a subfolder, through a linked worktree's .git file, none outside git", async () => {
  await using ws = await tempWorkspace({
    "main/.git/config": '[remote "origin"]\n\turl = https://origin.test/r.git\n',
    "main/src/deep/file.ts": "",
    "main/.git/worktrees/wt/commondir": "../..\n",
    "wt/.git": `gitdir: ${"../main/.git/worktrees/wt"}\n`,
    "plain/": "",
  });
  assert.deepEqual(await gitRemoteHosts(ws.join("main")), ["origin.test"]);
  assert.deepEqual(await gitRemoteHosts(ws.join("main/src/deep")), ["origin.test"]);
  assert.deepEqual(await gitRemoteHosts(ws.join("wt")), ["origin.test"]);
  assert.deepEqual(await gitRemoteHosts(ws.join("plain")), []);
});
