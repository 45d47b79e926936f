/** The bubblewrap command line from a plan, built without running anything. */
import assert from "node:assert/strict";
import {
  bwrapArgs,
  type Facts,
  type PathKind,
  pinnedFolders,
  protectedMounts,
} from "../../../lib/sandbox/bwrap.ts";
import type { SandboxPlan } from "../../../lib/sandbox/plan.ts";

const plan: SandboxPlan = {
  writable: ["/w"],
  protectedPaths: ["/w/.git/hooks", "/w/.git/config", "/w/.vscode", "/w/.envrc", "/w/a/b/.git/hooks"],
  denyRead: ["/home/u/.ssh", "/home/u/.npmrc", "/home/u/.aws"],
  temp: "/tmp/sbx/t1",
  cache: "/home/u/.cache/continue-mcp/sandbox/h",
  network: { kind: "off" },
  hidden: ["/run", "/var/run"],
  env: { TMPDIR: "/tmp/sbx/t1", DENO_DIR: "/home/u/.cache/continue-mcp/sandbox/h/deno" },
  unsetEnv: ["SSH_AUTH_SOCK"],
};

const disk: Record<string, PathKind> = {
  "/w": "dir",
  "/w/.git": "dir",
  "/w/.git/hooks": "dir",
  "/w/.git/config": "file",
  "/w/.vscode": "missing",
  "/w/.envrc": "empty",
  "/w/a": "dir",
  "/w/a/b": "dir",
  "/w/a/b/.git": "dir",
  "/w/a/b/.git/hooks": "dir",
  "/home/u/.ssh": "dir",
  "/home/u/.npmrc": "file",
  "/home/u/.aws": "missing",
  "/run": "dir",
  "/var/run": "missing",
  "/tmp/sbx/t1": "dir",
  "/home/u/.cache/continue-mcp/sandbox/h": "dir",
  "/etc/resolv.conf": "file",
};
const facts: Facts = (path) => disk[path] ?? "missing";

/** Pairs `flag a b` of an argv, in order, as strings. */
function mounts(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--") break;
    if (["--bind", "--ro-bind"].includes(args[i])) out.push(`${args[i]} ${args[i + 1]} ${args[i + 2]}`);
    if (["--tmpfs", "--dev", "--proc"].includes(args[i])) out.push(`${args[i]} ${args[i + 1]}`);
  }
  return out;
}

Deno.test("bwrap: namespaces, no capabilities, the order of mounts, then the command", () => {
  const args = bwrapArgs(plan, facts, {
    cwd: "/w/src",
    shareNetwork: false,
    seccompFd: 3,
    disableUserns: true,
  }, [
    "/bin/bash",
    "-c",
    "make",
  ]);
  assert.deepEqual(args.slice(0, 9), [
    "--unshare-user",
    "--disable-userns",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-net",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--ro-bind",
  ]);
  assert.deepEqual(mounts(args), [
    "--ro-bind / /",
    "--dev /dev",
    "--proc /proc",
    "--tmpfs /run",
    "--bind /tmp/sbx/t1 /tmp",
    "--bind /home/u/.cache/continue-mcp/sandbox/h /home/u/.cache/continue-mcp/sandbox/h",
    "--bind /w /w",
    // The folders on the way to protected names are pinned: a mount point cannot be renamed away.
    "--bind /w/.git /w/.git",
    "--bind /w/a /w/a",
    "--bind /w/a/b /w/a/b",
    "--bind /w/a/b/.git /w/a/b/.git",
    "--tmpfs /w/.envrc",
    "--tmpfs /w/.vscode",
    "--ro-bind /w/.git/config /w/.git/config",
    "--ro-bind /w/.git/hooks /w/.git/hooks",
    "--ro-bind /w/a/b/.git/hooks /w/a/b/.git/hooks",
    "--tmpfs /home/u/.ssh",
    "--ro-bind /dev/null /home/u/.npmrc",
  ]);
  const tail = args.slice(args.indexOf("--setenv"));
  assert.deepEqual(tail, [
    "--setenv",
    "TMPDIR",
    "/tmp",
    "--setenv",
    "DENO_DIR",
    "/home/u/.cache/continue-mcp/sandbox/h/deno",
    "--unsetenv",
    "SSH_AUTH_SOCK",
    "--chdir",
    "/w/src",
    "--seccomp",
    "3",
    "--",
    "/bin/bash",
    "-c",
    "make",
  ]);
  // Credentials are unreadable (mode 0000), placeholders empty and read-only by mode.
  assert.equal(args[args.indexOf("/home/u/.ssh") - 2], "0000");
  assert.equal(args[args.indexOf("/w/.vscode") - 2], "0555");
});

Deno.test("bwrap: network on shares the host's; old bubblewrap goes without --disable-userns", () => {
  const args = bwrapArgs(plan, facts, {
    cwd: "/w",
    shareNetwork: true,
    disableUserns: false,
    keep: ["/etc/resolv.conf"],
  }, [
    "true",
  ]);
  assert.ok(!args.includes("--unshare-net"));
  assert.ok(!args.includes("--disable-userns"));
  assert.ok(!args.includes("--seccomp"));
  // Kept paths come back read-only after the folders hidden and /tmp replaced.
  assert.ok(mounts(args).includes("--ro-bind /etc/resolv.conf /etc/resolv.conf"));
});

Deno.test("protectedMounts: a missing or empty folder on the way is the placeholder; a file stops the way", () => {
  const git: Record<string, PathKind> = { "/w": "dir", "/w/.git": "missing" };
  const noRepo = protectedMounts(plan, (path) => git[path] ?? "missing");
  // No `.git`: one placeholder there covers hooks and config (no `git init` either).
  assert.ok(noRepo.mounts.includes("/w/.git"));
  assert.ok(!noRepo.mounts.some((path) => path.startsWith("/w/.git/")));
  assert.ok(noRepo.placeholders.includes("/w/.git"));
  const pointer = protectedMounts(
    { ...plan, protectedPaths: ["/w/.git", "/w/.git/hooks"] },
    (path) => (path === "/w/.git" ? "file" : path === "/w" ? "dir" : "missing"),
  );
  assert.deepEqual(pointer, { mounts: ["/w/.git"], placeholders: [] });
  assert.deepEqual(pinnedFolders(plan, ["/w/.vscode"], facts), []);
  assert.deepEqual(pinnedFolders(plan, ["/w/a/b/.git/hooks"], facts), ["/w/a", "/w/a/b", "/w/a/b/.git"]);
});
