/**
 * The one place that asks which OS we run on. Everything OS-specific is chosen here from the pure
 * rule sets in `posix.ts` and `windows.ts`.
 * @module
 */
import { posixPaths, posixProcess } from "./posix.ts";
import { windowsPaths, windowsProcess } from "./windows.ts";
import { openUrlArgv, userConfigHome } from "./desktop.ts";
import { accountHome as accountHomeOn } from "./account_home.ts";
import type { OwnedTree } from "./windows_job.ts";
import { type LinuxFamily, linuxFamily } from "./linux_process.ts";
import { linuxPortListeners, type PortListener } from "./port_listeners.ts";

export type { LinuxFamily, OwnedTree, PortListener };

/** The OS we run on, as Deno names it. */
export const os: typeof Deno.build.os = Deno.build.os;

/** True on Windows. */
export const isWindows: boolean = os === "windows";

/** The path rules of this OS. */
export const platform: typeof posixPaths = isWindows ? windowsPaths : posixPaths;

/** Converts an OS path to the `/`-separated form shown to the model on every OS. */
export function toSlashes(path: string): string {
  return isWindows ? path.replaceAll("\\", "/") : path;
}

/** The process rules of this OS: shells, their argv, how a process tree is killed. */
export const processRules: typeof posixProcess = isWindows ? windowsProcess : posixProcess;

/** This user's config folder (`%APPDATA%`, `~/Library/Application Support`, `$XDG_CONFIG_HOME`). */
export function userConfigDir(env: Record<string, string | undefined>): string | undefined {
  return userConfigHome(os, env);
}

/**
 * The home folder of `uid` as the account database gives it, never from the environment; null when none is
 * known, and on Windows.
 */
export function accountHome(uid: number): Promise<string | null> {
  return accountHomeOn(os, uid);
}

/** Opens `url` in the default browser; resolves once the opener started (the browser runs on its own). */
export async function openInBrowser(url: string): Promise<void> {
  const [command, ...args] = openUrlArgv(os, url);
  const child = new Deno.Command(command, { args, stdin: "null", stdout: "null", stderr: "null" }).spawn();
  const status = await child.status;
  if (!status.success) throw new Error(`"${command}" exited with code ${status.code}`);
}

/**
 * The sockets listening on TCP `port` and the uid owning each (Linux, when this process may run `cat`);
 * undefined where that cannot be seen.
 */
export function portListeners(port: number): Promise<PortListener[] | undefined> {
  return os === "linux" ? linuxPortListeners(port) : Promise.resolve(undefined);
}

/** FFI to kernel32: loaded on Windows only. */
const windowsJobs = isWindows ? await import("./windows_job.ts") : null;

/**
 * Puts the just-spawned process `pid`, and what it starts from now on, in a Job Object we own (Windows, with
 * `--allow-ffi`); null elsewhere, where process groups do that job. Call it in the turn that spawned `pid`.
 */
export function ownProcessTree(pid: number): OwnedTree | null {
  return windowsJobs?.ownProcessTree(pid) ?? null;
}

/**
 * Linux with `--allow-ffi`: libc's calls that make this process the reaper of its orphaned descendants and
 * keep track of them (see lib/process/adoption.ts); null elsewhere.
 */
export function processFamily(): LinuxFamily | null {
  return os === "linux" ? linuxFamily() : null;
}
