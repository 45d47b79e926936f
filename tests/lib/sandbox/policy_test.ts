/** The policy: the plan comes from the user's settings and where the workspace is, paths resolved first. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildPolicy, type PolicyInput } from "../../../lib/sandbox/policy.ts";
import { readSandboxConfig } from "../../../lib/sandbox/config.ts";
import { remoteHostsOf } from "../../../lib/sandbox/git_remotes.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

const posixOnly = { ignore: isWindows };

async function input(root: string, home: string, env: Record<string, string> = {}): Promise<PolicyInput> {
  const full = { HOME: home, PATH: "/usr/bin:/bin", ...env };
  return {
    config: await readSandboxConfig(full, undefined),
    roots: [root],
    allowDirs: [],
    env: full,
    configDir: join(home, ".config"),
    temp: "/tmp/t",
    cache: join(home, ".cache", "c"),
  };
}

Deno.test({
  name: "policy: every protected name at a root, existing or not; nested repositories 3 levels down only",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace({
      ".git/hooks/": "",
      ".git/config": "[core]\n",
      "a/b/c/.git/HEAD": "ref: x\n",
      "a/b/c/d/.git/HEAD": "ref: x\n",
      "node_modules/dep/.git/HEAD": "ref: x\n",
      "sub/.git": "gitdir: ../.git/modules/sub\n",
      "tools/.envrc": "export X=1\n",
    });
    const { plan } = await buildPolicy(await input(ws.path, "/nonexistent"));
    const shown = plan.protectedPaths.map((path) => path.slice(ws.path.length + 1));
    for (const name of [".git/hooks", ".git/config", ".git/commondir", ".vscode", ".mcp.json", ".continue"]) {
      assert.ok(shown.includes(name), name);
    }
    assert.ok(shown.includes("a/b/c/.git/hooks") && shown.includes("a/b/c/.git/config"));
    assert.ok(!shown.some((path) => path.startsWith("a/b/c/d/")), "4 levels down is not looked at");
    assert.ok(!shown.some((path) => path.startsWith("node_modules/")), "dependencies are not walked");
    assert.ok(shown.includes("sub/.git") && shown.includes("tools/.envrc"));
    assert.ok(!shown.includes(".git"), ".git itself stays writable: commits");
    assert.deepEqual(plan.writable, [ws.path]);
  },
});

Deno.test({
  name:
    "policy: a `.git` pointer file is protected whole; credentials resolved through symlinks; caches moved",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace({
      "repo/.git": "gitdir: /elsewhere/.git/worktrees/repo\n",
      "home/.ssh/id_ed25519": "key",
      "real-aws/credentials": "secret",
      "home/.config/continue-mcp/token": "t",
    });
    await Deno.symlink(ws.join("real-aws"), ws.join("home", ".aws"));
    const { plan } = await buildPolicy(await input(ws.join("repo"), ws.join("home")));
    assert.ok(plan.protectedPaths.includes(ws.join("repo", ".git")));
    assert.ok(!plan.protectedPaths.includes(ws.join("repo", ".git", "hooks")));
    assert.ok(plan.denyRead.includes(ws.join("home", ".ssh")));
    assert.ok(plan.denyRead.includes(ws.join("real-aws")), "the symlink's target is what gets hidden");
    assert.ok(plan.denyRead.includes(ws.join("home", ".config", "continue-mcp")));
    assert.equal(plan.env?.DENO_DIR, join(ws.join("home"), ".cache", "c", "deno"));
    assert.equal(plan.env?.npm_config_cache, join(ws.join("home"), ".cache", "c", "npm"));
    assert.ok(plan.unsetEnv?.includes("SSH_AUTH_SOCK"));
  },
});

Deno.test({
  name: "policy: a folder the user opens keeps its protected names, the home's rc files and PATH programs",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace({
      "w/": "",
      "home/.bashrc": "",
      "home/bin/tool": "",
      "home/.vscode/": "",
    });
    const home = ws.join("home");
    const env = { MCP_SANDBOX_WRITE: home, PATH: `${ws.join("home", "bin")}:/usr/bin` };
    const { plan, problems } = await buildPolicy(await input(ws.join("w"), home, env));
    assert.deepEqual(plan.writable, [ws.join("w"), home]);
    for (const path of [".bashrc", ".gitconfig", "bin", ".vscode"]) {
      assert.ok(plan.protectedPaths.includes(join(home, path)), path);
    }
    assert.ok(
      !plan.protectedPaths.includes(join(home, ".idea")),
      "only a root of the workspace gets them all",
    );
    const missing = await buildPolicy(
      await input(ws.join("w"), home, { MCP_SANDBOX_WRITE: ws.join("gone") }),
    );
    assert.match(missing.problems.join("\n"), /MCP_SANDBOX_WRITE: ignored ".*gone" \(no such folder\)/);
    assert.deepEqual(problems, []);
  },
});

Deno.test({
  name: "policy: network allow lists the defaults, the user's domains and the workspace's git remotes",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace({
      ".git/config":
        '[remote "origin"]\n\turl = git@git.example.org:team/repo.git\n[branch "main"]\n\turl = x\n',
    });
    const { plan } = await buildPolicy(
      await input(ws.path, "/nonexistent", { MCP_SANDBOX_DOMAINS: "pkgs.corp.net" }),
    );
    assert.equal(plan.network.kind, "allow");
    const domains = plan.network.kind === "allow" ? plan.network.domains : [];
    for (
      const domain of ["registry.npmjs.org", "pypi.org", "github.com", "pkgs.corp.net", "git.example.org"]
    ) {
      assert.ok(domains.includes(domain), domain);
    }
    // The repository chose its remotes: they are reached on public addresses only; the user's and the
    // defaults are not.
    assert.deepEqual(plan.network.kind === "allow" ? plan.network.publicOnly : [], ["git.example.org"]);
    const off = await buildPolicy(await input(ws.path, "/nonexistent", { MCP_SANDBOX_NETWORK: "off" }));
    assert.deepEqual(off.plan.network, { kind: "off" });
  },
});

Deno.test({
  name: "policy: hooks moved into the working tree by core.hooksPath are protected (husky's folder too)",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace({
      "repo/.git/config": "[core]\n\thooksPath = .husky/_\n",
      "repo/.husky/pre-commit": "npm test\n",
      "other/.git/HEAD": "ref: x\n",
      "home/.gitconfig": "[core]\n\thooksPath = .githooks\n",
    });
    const repo = await buildPolicy(await input(ws.join("repo"), ws.join("home")));
    assert.ok(repo.plan.protectedPaths.includes(ws.join("repo", ".husky", "_")));
    assert.ok(repo.plan.protectedPaths.includes(ws.join("repo", ".husky")));
    // The user's global setting applies to every repository, relative to it.
    const other = await buildPolicy(await input(ws.join("other"), ws.join("home")));
    assert.ok(other.plan.protectedPaths.includes(ws.join("other", ".githooks")));
  },
});

Deno.test({
  name: "policy: a dotfiles workspace: the home's rc files that link into it stay protected",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace({
      "dotfiles/bashrc": "# rc\n",
      "dotfiles/ssh_config": "Host *\n",
      "home/.ssh/": "",
    });
    await Deno.symlink(ws.join("dotfiles", "bashrc"), ws.join("home", ".bashrc"));
    await Deno.symlink(ws.join("dotfiles", "ssh_config"), ws.join("home", ".ssh", "config"));
    const { plan } = await buildPolicy(await input(ws.join("dotfiles"), ws.join("home")));
    assert.ok(plan.protectedPaths.includes(ws.join("dotfiles", "bashrc")));
    assert.ok(plan.protectedPaths.includes(ws.join("dotfiles", "ssh_config")));
  },
});

Deno.test("git remotes: url and pushurl of remotes only, every URL form", () => {
  const text = [
    '[remote "origin"]',
    "\turl = https://github.com/a/b.git",
    "\tpushurl = ssh://git@push.example.com:2222/a/b.git",
    '[remote "mirror"]',
    "\turl = me@Mirror.Example.net:a/b",
    '[remote "local"]',
    "\turl = /srv/git/b.git",
    '[submodule "x"]',
    "\turl = https://evil.example/x",
  ].join("\n");
  assert.deepEqual(remoteHostsOf(text), ["github.com", "push.example.com", "mirror.example.net"]);
});
