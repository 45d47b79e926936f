/**
 * Real git for attack tests: runs `git` with no system or global config (so the machine's settings neither
 * help nor hide an attack) and a fixed identity, and reports its exit code and output instead of throwing,
 * because a refused or broken repository is often the expected outcome.
 */
import { isWindows } from "../../lib/platform/mod.ts";

/** What a git run printed and how it ended. */
export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `git args…` in `cwd`; git looks for a repository no higher than `ceiling` (a planted /tmp/.git). */
export async function git(cwd: string, args: string[], ceiling?: string): Promise<GitRun> {
  const output = await new Deno.Command("git", {
    args,
    cwd,
    env: {
      ...(ceiling ? { GIT_CEILING_DIRECTORIES: ceiling } : {}),
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: isWindows ? "NUL" : "/dev/null",
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@localhost",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@localhost",
    },
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

/** Runs `git args…` in `cwd` and throws with its stderr when it fails (fixture set-up). */
export async function gitOk(cwd: string, ...args: string[]): Promise<string> {
  const run = await git(cwd, args);
  if (run.code !== 0) throw new Error(`git ${args.join(" ")} failed (${run.code}): ${run.stderr}`);
  return run.stdout;
}

/** Whether a marker file a planted command would create exists. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
