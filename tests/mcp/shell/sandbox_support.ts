/**
 * For the sandbox's tests with real bubblewrap: whether it works here (tests are ignored where it does not;
 * CI installs it), a fake home full of things to steal or change, a git workspace, and a fingerprint of a
 * folder tree to prove nothing outside the workspace changed.
 * @module
 */
import { join } from "node:path";
import { os } from "../../../lib/platform/mod.ts";
import { probeBwrap } from "../../../lib/sandbox/linux_probe.ts";
import { type TempWorkspace, tempWorkspace } from "../../_support/workspace.ts";

/** Whether bubblewrap can make a sandbox here (Linux, installed, user namespaces allowed). */
export const bwrapUsable: boolean = os === "linux" &&
  (await probeBwrap({ PATH: Deno.env.get("PATH") })).bwrap !== undefined;

/** Deno's module cache, kept for servers started with a fake HOME (a fresh one would download everything). */
export const denoDir: string = Deno.env.get("DENO_DIR") ??
  JSON.parse(
    new TextDecoder().decode(
      (await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stderr: "null" }).output()).stdout,
    ),
  ).denoDir;

/** The secret a job must never print. */
export const SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- sandbox-test-secret";

/** A fake home (secrets, rc files, a folder outside the workspace) and a git workspace inside one temp dir. */
export interface AttackFixture extends AsyncDisposable {
  home: string;
  workspace: string;
  /** A folder outside the workspace the job can see: writes there must fail. */
  outside: string;
  /** Environment for a server using this home. */
  env: Record<string, string>;
}

/** Builds the fixture; the workspace is a git repository with one commit and a symlink to `outside`. */
export async function attackFixture(): Promise<AttackFixture> {
  const root: TempWorkspace = await tempWorkspace({
    "home/.ssh/id_ed25519": `${SECRET}\n`,
    "home/.aws/credentials": "[default]\naws_secret_access_key = sandbox-test-aws\n",
    "home/.npmrc": "//registry.npmjs.org/:_authToken=sandbox-test-npm\n",
    "home/.pgpass": "db:5432:*:app:sandbox-test-pgpass\n",
    "home/.bashrc": "# the user's bashrc\n",
    "home/.config/continue-mcp/http-token": "sandbox-test-token\n",
    "home/outside/keep.txt": "keep\n",
    "ws/README.md": "# a cloned repository\n",
  });
  const home = root.join("home");
  const workspace = root.join("ws");
  await git(workspace, ["init", "-q"]);
  await git(workspace, ["add", "-A"]);
  await git(workspace, ["commit", "-qm", "init"]);
  await Deno.symlink(join(home, "outside"), join(workspace, "out"));
  await Deno.chmod(join(home, ".config", "continue-mcp"), 0o700);
  return {
    home,
    workspace,
    outside: join(home, "outside"),
    env: {
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_CACHE_HOME: join(home, ".cache"),
      DENO_DIR: denoDir,
      // Credentials in the server's environment: a sandboxed job must not see them either.
      GITHUB_TOKEN: "sandbox-test-gh-token",
      AWS_SECRET_ACCESS_KEY: "sandbox-test-aws-env",
    },
    [Symbol.asyncDispose]: () => root[Symbol.asyncDispose](),
  };
}

/** Runs git in `cwd` with a fixed identity; throws on failure. */
export async function git(cwd: string, args: string[]): Promise<string> {
  const output = await new Deno.Command("git", {
    args: ["-c", "user.name=test", "-c", "user.email=test@localhost", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  if (!output.success) throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(output.stderr)}`);
  return text;
}

/**
 * Every entry under `root` (not following symlinks) with its kind, mode, size and content: two fingerprints
 * differ when anything was added, removed or changed. Paths under `skip` (relative) are left out.
 */
export async function fingerprint(root: string, skip: readonly string[] = []): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (dir: string, relative: string) => {
    const entries = await Array.fromAsync(Deno.readDir(dir));
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (skip.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) continue;
      const full = join(dir, entry.name);
      const info = await Deno.lstat(full);
      const content = info.isFile
        ? await Deno.readTextFile(full)
        : info.isSymlink
        ? await Deno.readLink(full)
        : "";
      lines.push(`${path} ${info.isDirectory ? "d" : info.isSymlink ? "l" : "f"} ${info.mode} ${content}`);
      if (info.isDirectory) await walk(full, path);
    }
  };
  await walk(root, "");
  return lines;
}
