/**
 * The Seatbelt profile, read back as Seatbelt reads it (a later matching rule wins, `(deny default)` first):
 * each promise checked on the generated text, deterministically, on every OS. The real `sandbox-exec` runs in
 * seatbelt_darwin_test.ts.
 */
import assert from "node:assert/strict";
import { SANDBOX_EXEC, seatbeltCommand, seatbeltProfile } from "../../../lib/sandbox/seatbelt.ts";
import type { SandboxPlan } from "../../../lib/sandbox/plan.ts";
import { allowed, filterValues, readProfile, rulesOf, type Sexp } from "./_sbpl_reader.ts";

const HOME = "/Users/me";
const PLAN: SandboxPlan = {
  writable: [`${HOME}/ws`, `${HOME}/other/`],
  protectedPaths: [
    `${HOME}/ws/.git/hooks`,
    `${HOME}/ws/.git/config`,
    `${HOME}/ws/sub/.envrc`,
    `${HOME}/.bashrc`,
  ],
  denyRead: [`${HOME}/.ssh`, `${HOME}/.docker/config.json`],
  temp: "/private/var/folders/xy/abc/T/cmcp-1",
  cache: `${HOME}/Library/Caches/continue-mcp/ws-1`,
  network: { kind: "off" },
};
const WRITE = ["file-write*", "file-write-data", "file-write-create"];
const UNLINK = ["file-write*", "file-write-unlink"];
const READ = ["file-read*", "file-read-data"];

function profileOf(plan: Partial<SandboxPlan> = {}, proxyPort?: number): Sexp[] {
  return readProfile(seatbeltProfile({ ...PLAN, ...plan }, { proxyPort }));
}

Deno.test("seatbeltProfile: closed by default, balanced, the same text for the same plan", () => {
  const text = seatbeltProfile(PLAN);
  assert.equal(text, seatbeltProfile(structuredClone(PLAN)));
  const profile = readProfile(text);
  assert.deepEqual(profile.slice(0, 2), [["version", "1"], ["deny", "default"]]);
  assert.equal(rulesOf(profile, "allow", "default").length, 0);
  assert.deepEqual(seatbeltCommand(text, ["/bin/sh", "-c", "true"]), [
    SANDBOX_EXEC,
    "-p",
    text,
    "/bin/sh",
    "-c",
    "true",
  ]);
  assert.equal(SANDBOX_EXEC, "/usr/bin/sandbox-exec");
});

Deno.test("seatbeltProfile: writes only in the writable, temp and cache folders", () => {
  const profile = profileOf();
  for (const path of [`${HOME}/ws/src/a.ts`, `${HOME}/other/x`, `${PLAN.temp}/x`, `${PLAN.cache}/npm/x`]) {
    assert.ok(allowed(profile, WRITE, path), path);
  }
  for (
    const path of [
      `${HOME}/.bashrc`,
      `${HOME}/x`,
      `${HOME}/wsx/a`,
      "/etc/hosts",
      "/private/tmp/x",
      "/Users/x",
    ]
  ) {
    assert.ok(!allowed(profile, WRITE, path), path);
  }
});

Deno.test("seatbeltProfile: protected names refused in every writable folder, existing or not, any case", () => {
  const profile = profileOf();
  for (const root of [`${HOME}/ws`, `${HOME}/other`]) {
    for (
      const path of [
        ".git/hooks/pre-commit",
        ".git/config",
        ".GIT/Config",
        ".git/modules/m/config",
        ".git/worktrees/w/HEAD",
        ".git",
        ".gitmodules",
        ".envrc",
        "a/b/.envrc",
        "vendor/lib/.git/hooks/post-checkout",
        "vendor/lib/.git",
        ".continue/config.yaml",
        ".mcp.json",
        ".claude/settings.json",
        ".vscode/tasks.json",
        ".VSCODE",
        ".idea/workspace.xml",
      ]
    ) assert.ok(!allowed(profile, WRITE, `${root}/${path}`), `${root}/${path}`);
    for (
      const path of [
        ".git/objects/ab/cd",
        ".git/index",
        ".git/refs/heads/main",
        ".github/ci.yml",
        "sub/.vscode/x",
      ]
    ) assert.ok(allowed(profile, WRITE, `${root}/${path}`), `${root}/${path}`);
  }
  // The private temp folder is not a workspace: `git init` there works.
  assert.ok(allowed(profile, WRITE, `${PLAN.temp}/repo/.git/hooks/pre-commit`));
});

Deno.test("seatbeltProfile: what holds a rule's path is not moved away; no hard links", () => {
  const profile = profileOf();
  for (const path of [`${HOME}/ws`, HOME, `${HOME}/ws/sub`, `${HOME}/ws/.git`, `${HOME}/ws/.git/hooks`]) {
    assert.ok(!allowed(profile, UNLINK, path), path);
  }
  for (const path of [`${HOME}/ws/src`, `${HOME}/ws/src/a.ts`, `${HOME}/ws/.git/index.lock`]) {
    assert.ok(allowed(profile, UNLINK, path), path);
  }
  assert.ok(profile.some((rule) => Array.isArray(rule) && rule.join(" ") === "deny file-link"));
  assert.equal(rulesOf(profile, "allow", "file-link").length, 0);
});

Deno.test("seatbeltProfile: unreadable paths in any spelling; other terminals neither read nor written", () => {
  const profile = profileOf();
  for (
    const path of [
      `${HOME}/.ssh`,
      `${HOME}/.ssh/id_ed25519`,
      `${HOME}/.SSH/ID`,
      `${HOME}/.docker/config.json`,
    ]
  ) {
    assert.ok(!allowed(profile, READ, path), path);
  }
  for (const path of [`${HOME}/.sshrc`, `${HOME}/.docker/run/x`, "/etc/hosts", `${HOME}/ws/a.ts`]) {
    assert.ok(allowed(profile, READ, path), path);
  }
  assert.ok(!allowed(profile, ["file-read*"], "/dev/ttys000"));
  assert.ok(!allowed(profile, ["file-write*"], "/dev/ttys000"));
  assert.ok(allowed(profile, ["file-write-data"], "/dev/null"));
  assert.ok(allowed(profile, ["file-write-data"], "/dev/fd/1"));
});

Deno.test("seatbeltProfile: no keychain, LaunchServices, pasteboard or preferences daemon; trust services only with network on", () => {
  const services = (profile: Sexp[]) =>
    rulesOf(profile, "allow", "mach-lookup").flatMap((rule) =>
      rule.flatMap((part) =>
        Array.isArray(part) && part[0] === "global-name" ? [(part[1] as { string: string }).string] : []
      )
    );
  const off = services(profileOf());
  for (
    const bad of [
      "SecurityServer",
      "securityd",
      "launchservicesd",
      "lsd.",
      "pasteboard",
      "cfprefsd",
      "trustd",
      "ocspd",
    ]
  ) {
    assert.ok(!off.some((name) => name.includes(bad)), bad);
  }
  assert.ok(services(profileOf({ network: { kind: "on" } })).includes("com.apple.trustd.agent"));
});

Deno.test("seatbeltProfile: network off, through the proxy's port only, or on; unix sockets only in temp", () => {
  const outbound = (profile: Sexp[]) =>
    rulesOf(profile, "allow", "network-outbound").map((rule) => JSON.stringify(rule.slice(2)));
  const off = profileOf();
  assert.deepEqual(outbound(off), []);
  const own = rulesOf(off, "allow", "network*");
  assert.equal(own.length, 1);
  assert.deepEqual(filterValues(own[0], "subpath"), [PLAN.temp]);

  const proxied = profileOf({ network: { kind: "allow", domains: ["registry.npmjs.org"] } }, 41234);
  assert.deepEqual(outbound(proxied), [JSON.stringify([["remote", "ip", { string: "localhost:41234" }]])]);
  for (const port of [undefined, 0, 70000, 1.5]) {
    assert.throws(
      () => seatbeltProfile({ ...PLAN, network: { kind: "allow", domains: [] } }, { proxyPort: port }),
      /port/,
    );
  }

  const on = profileOf({ network: { kind: "on" } });
  assert.ok(outbound(on).includes(JSON.stringify([["remote", "ip", { string: "*:*" }]])));
  assert.ok(
    outbound(on).includes(JSON.stringify([["literal", { string: "/private/var/run/mDNSResponder" }]])),
  );
  // Even with the network on, no unix socket but the resolver's and the job's own: not docker.sock, not ssh-agent.
  assert.equal(rulesOf(on, "allow", "network*").length, 1);
});

Deno.test("seatbeltProfile: a path with quotes, backslashes, parentheses or a newline stays one path", () => {
  const odd = `${HOME}/w "q"\\ )(allow default)\n(allow file-write* (subpath "/"))`;
  const plain = profileOf();
  const profile = profileOf({
    writable: [odd],
    protectedPaths: [`${odd}/.git/config`],
    denyRead: [`${odd}/secret`],
  });
  assert.equal(profile.length, plain.length, "no rule more than the plain plan's");
  assert.equal(rulesOf(profile, "allow", "default").length, 0);
  assert.ok(allowed(profile, WRITE, `${odd}/src/a.ts`));
  assert.ok(!allowed(profile, WRITE, `${odd}/.git/hooks/pre-commit`));
  assert.ok(!allowed(profile, WRITE, "/etc/passwd"));
  assert.ok(!allowed(profile, READ, `${odd}/SECRET/x`));
});

Deno.test("seatbeltProfile: a relative path is refused, never guessed at", () => {
  assert.throws(() => seatbeltProfile({ ...PLAN, writable: ["ws"] }), /absolute/);
  assert.throws(() => seatbeltProfile({ ...PLAN, denyRead: ["~/.ssh"] }), /absolute/);
});
