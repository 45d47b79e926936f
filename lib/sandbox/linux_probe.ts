/**
 * Whether bubblewrap can sandbox jobs here: found (in the system folders first, never in a folder a job may
 * write: a job must not put its own `bwrap` in the next job's way), user namespaces allowed, the flags jobs
 * get understood. One trial sandbox with those flags and the seccomp filter.
 * @module
 */
import { findOnPath } from "../platform/which.ts";
import { platform } from "../platform/mod.ts";
import { wrapInvocation } from "./linux.ts";

const decoder = new TextDecoder();

/** What the probe found. */
export interface LinuxProbe {
  /** Absolute path of bwrap, when it works. */
  bwrap?: string;
  version?: string;
  /** Why it cannot be used (with how to fix it). */
  problem?: string;
  disableUserns: boolean;
}

/** Where distributions install bwrap; searched before PATH. */
const SYSTEM_BWRAP = ["/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"];
const INSTALL_HINT =
  "install bubblewrap (apt install bubblewrap, dnf install bubblewrap, pacman -S bubblewrap)";

/** Finds bwrap and runs a trial sandbox with the flags jobs get (and the seccomp filter, when given). */
export async function probeBwrap(
  env: { PATH?: string },
  options: { filterPath?: string; writable?: readonly string[] } = {},
): Promise<LinuxProbe> {
  let bwrap: string | null = null;
  for (const candidate of SYSTEM_BWRAP) {
    if (await Deno.stat(candidate).then((info) => info.isFile, () => false)) {
      bwrap = candidate;
      break;
    }
  }
  bwrap ??= await findOnPath("bwrap", env);
  if (!bwrap) return { problem: `bwrap is not installed: ${INSTALL_HINT}`, disableUserns: false };
  bwrap = await Deno.realPath(bwrap);
  if ((options.writable ?? []).some((dir) => platform.isInside(bwrap!, dir))) {
    return { problem: `bwrap at "${bwrap}" lies in a folder jobs may write`, disableUserns: false };
  }
  const version = (await run(bwrap, ["--version"])).out.trim();
  for (const disableUserns of [true, false]) {
    const flags = [
      "--unshare-user",
      ...(disableUserns ? ["--disable-userns"] : []),
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-net",
      "--new-session",
      "--cap-drop",
      "ALL",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      ...(options.filterPath ? ["--seccomp", "3"] : []),
      "--",
      "/bin/true",
    ];
    const trial = wrapInvocation(bwrap, options.filterPath, flags);
    const result = await run(trial.program, trial.args);
    if (result.ok) return { bwrap, version, disableUserns };
    // bubblewrap before 0.8 does not know --disable-userns: try again without it.
    if (disableUserns && /disable-userns|Unknown option/i.test(result.err)) continue;
    const reason = result.err.trim().split("\n")[0] || "it failed";
    return {
      version,
      problem: `bubblewrap cannot create a sandbox here (${reason}); user namespaces may be off ` +
        "(sysctl kernel.unprivileged_userns_clone=1) or refused by the container",
      disableUserns: false,
    };
  }
  return { problem: "unreachable", disableUserns: false };
}

async function run(program: string, args: string[]): Promise<{ ok: boolean; out: string; err: string }> {
  try {
    const output = await new Deno.Command(program, { args, stdin: "null", stdout: "piped", stderr: "piped" })
      .output();
    return { ok: output.success, out: decoder.decode(output.stdout), err: decoder.decode(output.stderr) };
  } catch (error) {
    return { ok: false, out: "", err: error instanceof Error ? error.message : String(error) };
  }
}
