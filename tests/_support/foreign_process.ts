/**
 * Another user's process, for tests run as root that check we leave it alone: `nobody` (uid 65534, through
 * setpriv: no new session, so it stays our child to wait for), sleeping 300 s with the environment given.
 * Non-dumpable (python3's prctl(PR_SET_DUMPABLE, 0), as setuid programs are), its /proc/<pid>/environ and
 * the rest of /proc/<pid> belong to root: an ownership test on those files then calls it ours.
 * @module
 */

/** The uid and gid the process runs as. */
export const NOBODY = 65534;

/** A Python with no path under root's home (a pyenv shim there is out of nobody's reach). */
const PYTHON = "/usr/bin/python3";

const NON_DUMPABLE = `
import ctypes, os, sys, time
if ctypes.CDLL(None).prctl(4, 0) != 0:
    sys.exit("prctl(PR_SET_DUMPABLE, 0) failed")
os.write(1, b"ready\\n")
os.close(1)
time.sleep(300)
`;

const setpriv = ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"];

/** Starts nobody's sleeper with `env`; with `nonDumpable`, resolves once it made itself non-dumpable. */
export async function nobodySleeper(
  env: Record<string, string>,
  options: { nonDumpable?: boolean } = {},
): Promise<Deno.ChildProcess> {
  const argv = options.nonDumpable ? [...setpriv, PYTHON, "-c", NON_DUMPABLE] : [...setpriv, "sleep", "300"];
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    env,
    stdin: "null",
    stdout: options.nonDumpable ? "piped" : "null",
    stderr: "null",
  }).spawn();
  if (!options.nonDumpable) return child;
  // It closes stdout once it is non-dumpable: read to the end (cancelling early could break its pipe).
  if (await new Response(child.stdout).text() !== "ready\n") {
    throw new Error(`${PYTHON} did not make itself non-dumpable`);
  }
  return child;
}

/** The uid owning `/proc/<pid>/environ` (root for a non-dumpable process, whoever runs it). */
export async function environOwner(pid: number): Promise<number> {
  const { stdout } = await new Deno.Command("stat", { args: ["-c", "%u", `/proc/${pid}/environ`] }).output();
  return Number(new TextDecoder().decode(stdout).trim());
}
