/** What the agent reads after a refusal: one line naming the sandbox and the path or host. */
import assert from "node:assert/strict";
import { explainRefusal } from "../../../lib/sandbox/refusal.ts";
import type { SandboxPlan } from "../../../lib/sandbox/plan.ts";
import { describeStatus } from "../../../lib/sandbox/status.ts";
import { readSandboxConfig } from "../../../lib/sandbox/config.ts";
import { networkSetup } from "../../../lib/sandbox/network.ts";

const plan: SandboxPlan = {
  writable: ["/w"],
  protectedPaths: ["/w/.git/hooks", "/w/.git/config", "/w/.vscode"],
  denyRead: ["/home/u/.ssh"],
  temp: "/tmp/s/t",
  cache: "/home/u/.cache/c",
  network: { kind: "off" },
};
const explain = (output: string) => explainRefusal(output, plan, { cwd: "/w" });

Deno.test("refusal: writes outside, into protected names, reads of credentials, each as shells and tools say it", () => {
  const outside =
    '[sandbox] refused a write to "/home/u/.bashrc" (outside the workspace); the user can allow ' +
    "folders with MCP_SANDBOX_WRITE";
  assert.equal(explain("/usr/bin/bash: line 1: /home/u/.bashrc: Read-only file system"), outside);
  assert.equal(explain("touch: cannot touch '/home/u/.bashrc': Read-only file system"), outside);
  assert.equal(explain("OSError: [Errno 30] Read-only file system: '/home/u/.bashrc'"), outside);
  assert.equal(explain("Error: EROFS: read-only file system, open '/home/u/.bashrc'"), outside);
  assert.equal(
    explain("cp: cannot create regular file '.git/hooks/pre-commit': Read-only file system"),
    '[sandbox] refused a write to "/w/.git/hooks/pre-commit" (protected: git runs hooks)',
  );
  assert.equal(
    explain("mkdir: cannot create directory ‘.vscode/x’: Permission denied"),
    undefined,
    "a permission error elsewhere than a denied path is the program's own",
  );
  assert.equal(
    explain(
      "fatal: cannot copy '/usr/share/git-core/templates/description' to '/w/.git/description': " +
        "Read-only file system",
    ),
    '[sandbox] refused a write to "/w/.git/description" (protected: git\'s config and hooks)',
  );
  assert.equal(
    explain("cat: /home/u/.ssh/id_ed25519: Permission denied"),
    '[sandbox] refused a read of "/home/u/.ssh/id_ed25519" (credentials are hidden from jobs)',
  );
  assert.match(
    explain("ln: failed to create hard link 'hl' => '/home/u/.bashrc': Invalid cross-device link")!,
    /^\[sandbox\] refused a hard link to "\/home\/u\/\.bashrc" \(outside the workspace\)/,
  );
  assert.equal(
    explain("mv: cannot move '.git' to '.git-old': Device or resource busy"),
    '[sandbox] refused moving "/w/.git": it holds protected names (git hooks and config)',
  );
  assert.equal(explain("make: *** [all] Error 2\nsrc/a.c:3: error: expected ';'"), undefined);
});

Deno.test("refusal: connections name the host and how the user opens the network", () => {
  assert.equal(
    explain("curl: (6) Could not resolve host: example.com"),
    '[sandbox] refused a connection to "example.com" (network off); the user can allow it with ' +
      "MCP_SANDBOX_NETWORK=on",
  );
  assert.match(
    explain("npm error getaddrinfo EAI_AGAIN registry.npmjs.org")!,
    /"EAI_AGAIN"|registry\.npmjs\.org/,
  );
  assert.match(
    explain("bash: connect: Network is unreachable\nbash: /dev/tcp/10.0.0.1/80: x")!,
    /refused a connection/,
  );
  const on = explainRefusal("curl: (6) Could not resolve host: example.com", {
    ...plan,
    network: { kind: "on" },
  }, {
    cwd: "/w",
  });
  assert.equal(on, undefined, "with the network on, a failed lookup is not the sandbox's doing");
});

Deno.test("status: the mode in force and why, loudly when jobs run unsandboxed", async () => {
  const config = await readSandboxConfig({ MCP_SANDBOX: "off" }, undefined);
  assert.equal(
    describeStatus({ config, problems: [] }).brief,
    "[sandbox OFF (MCP_SANDBOX=off): commands run unsandboxed]",
  );
  const auto = await readSandboxConfig({}, undefined);
  const missing = describeStatus({ config: auto, problems: [], unavailable: "bwrap is not installed" });
  assert.equal(missing.active, false);
  assert.match(
    missing.summary,
    /^sandbox OFF \(mode auto, the default\): bwrap is not installed; jobs run with/,
  );
  const required = await readSandboxConfig({ MCP_SANDBOX: "require" }, undefined);
  assert.equal(describeStatus({ config: required, problems: [], unavailable: "x" }).refusing, true);
  const on = describeStatus({
    config: auto,
    problems: [],
    engine: "bubblewrap 0.8.0",
    plan: { ...plan, network: { kind: "allow", domains: ["a.org"] } },
    network: networkSetup({ kind: "allow", domains: ["a.org"] }, { socat: "/usr/bin/socat" }),
    filter: true,
  });
  assert.equal(on.brief, "[sandbox on: writes only in the workspace; network allow-list (1 domains)]");
  assert.match(on.summary, /network allow-list \(1 domains\)$/);
});

Deno.test("status: an allow-list without socat runs as network off, said in the status and each refusal", async () => {
  const auto = await readSandboxConfig({}, undefined);
  const allow = { ...plan, network: { kind: "allow" as const, domains: ["a.org"] } };
  const network = networkSetup(allow.network, { problem: "socat is not installed" });
  assert.equal(network.bridge, undefined);
  const off = describeStatus({
    config: auto,
    problems: [],
    engine: "bubblewrap",
    plan: allow,
    network,
    filter: true,
  });
  assert.equal(off.brief, "[sandbox on: writes only in the workspace; network off (socat is not installed)]");
  assert.match(
    off.summary,
    /network off \(allow-list asked, but socat is not installed: jobs get no network\)/,
  );
  assert.equal(
    explainRefusal("curl: (6) Could not resolve host: example.com", allow, {
      cwd: "/w",
      networkNote: network.note,
    }),
    '[sandbox] refused a connection to "example.com" (network off: socat is not installed); the user can ' +
      "allow it with MCP_SANDBOX_NETWORK=on",
  );
});
