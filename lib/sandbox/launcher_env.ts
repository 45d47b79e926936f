/**
 * The environment of the processes that build a job's sandbox (`/bin/sh`, bubblewrap, the network bridge's
 * shell and socat) runs outside it: the bridge's sandbox even sees the host's disk writable. A job's `env`
 * must never steer them: seen, `LD_PRELOAD` of a library the job had built ran in them and read ~/.ssh. So
 * the variables the dynamic loader, libc and the shell act on are kept out of the launchers (PATH is a
 * fixed system one) and handed to the job inside the sandbox by bubblewrap's `--setenv`.
 * @module
 */

/** What the launchers may see; they run only absolute system programs and shell builtins. */
export const LAUNCHER_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** Names the loader, glibc or a POSIX shell act on at start (glibc's list for setuid programs, and more). */
const STEERING = new Set([
  "PATH",
  "GCONV_PATH",
  "GETCONF_DIR",
  "GLIBC_TUNABLES",
  "HOSTALIASES",
  "LOCALDOMAIN",
  "LOCPATH",
  "NIS_PATH",
  "NLSPATH",
  "RESOLV_HOST_CONF",
  "RES_OPTIONS",
  "TZDIR",
  "ENV",
  "BASH_ENV",
  "IFS",
  "CDPATH",
  "SHELLOPTS",
  "BASHOPTS",
  "PS4",
]);

function steers(name: string): boolean {
  return STEERING.has(name) || name.startsWith("LD_") || name.startsWith("MALLOC_");
}

/** The launchers' environment and the variables bubblewrap sets for the job inside. */
export interface LauncherEnv {
  launcher: Record<string, string>;
  inside: [string, string][];
}

/** Splits a job's whole environment: what steers a program stays out of the launchers. */
export function splitLauncherEnv(env: Record<string, string>): LauncherEnv {
  const launcher: Record<string, string> = {};
  const inside: [string, string][] = [];
  for (const [name, value] of Object.entries(env)) {
    if (steers(name)) inside.push([name, value]);
    else launcher[name] = value;
  }
  launcher.PATH = LAUNCHER_PATH;
  return { launcher, inside };
}
