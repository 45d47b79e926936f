/**
 * Runs a server (or a script) as root in a private mount namespace (Linux), where `<root>/tmp` is /tmp and
 * `<root>/passwd` is /etc/passwd: tests can take the fixed /tmp names another user could take, and choose the
 * account's home, without touching the machine's own /tmp or accounts. The process gets exactly `env`
 * (plus DENO_DIR), as an MCP client that passes its own environment would start it.
 */
import { Client, StdioClientTransport } from "../../lib/mcp/sdk_client.ts";
import { listServers, REPO_ROOT, runArgs } from "../../tools/catalog.ts";
import { os } from "../../lib/platform/mod.ts";
import type { StdioConnection } from "./stdio.ts";
import { type FixtureEntry, seed } from "./workspace.ts";

/** Whether this machine can run the isolated tests: root on Linux (mount namespaces). */
export const canIsolate: boolean = os === "linux" && Deno.uid() === 0;

/** Where an isolated process runs. */
export interface IsolatedOptions {
  /** Host folder holding `tmp/` (the process's /tmp) and `passwd` (its /etc/passwd). */
  root: string;
  /** The working folder, as the process sees it (under /tmp). */
  cwd: string;
  env?: Record<string, string>;
  /** `deno run` flags before the permissions (e.g. `--config` of an import map). */
  denoFlags?: string[];
  /** Run as this uid (and gid) instead of root: root passes every permission check of the OS. */
  uid?: number;
}

/** Makes `<root>/tmp` (1777, holding `files`) and `<root>/passwd` (root's home: `home`; uid 1000's: `/tmp/user-home`). */
export async function isolatedRoot(
  root: string,
  options: { home: string; files?: Record<string, FixtureEntry> },
): Promise<void> {
  await Deno.mkdir(`${root}/tmp`, { recursive: true });
  await Deno.chmod(`${root}/tmp`, 0o1777);
  await seed(`${root}/tmp`, options.files ?? {});
  await Deno.writeTextFile(
    `${root}/passwd`,
    `root:x:0:0:root:${options.home}:/bin/sh\nuser:x:1000:1000::/tmp/user-home:/bin/sh\n` +
      "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n",
  );
}

/** The path that `inside` (a path under /tmp, as isolated processes see it) has on the host. */
export function hostPath(root: string, inside: string): string {
  if (!inside.startsWith("/tmp/")) throw new Error(`"${inside}" is not under /tmp`);
  return `${root}${inside}`;
}

function command(argv: string[], options: IsolatedOptions): { command: string; args: string[] } {
  // The isolated /tmp hides the machine's: a checkout under /tmp (a CI clone, say) is first bound into the
  // new /tmp at its own path, which the recursive bind then carries along.
  const checkout = REPO_ROOT.replace(/\/$/, "");
  const keep = checkout.startsWith("/tmp/") ? checkout : "";
  // Another user cannot reach root's Deno cache: it gets a read-only view of it at /tmp/.deno-dir.
  const env = {
    DENO_DIR: options.uid === undefined ? denoDir() : "/tmp/.deno-dir",
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    ...options.env,
  };
  const [mountCache, asUser] = options.uid === undefined ? ["", ""] : [
    `mkdir -p /tmp/.deno-dir && mount --bind "${denoDir()}" /tmp/.deno-dir && ` +
    "mount -o remount,bind,ro /tmp/.deno-dir && ",
    `setpriv --reuid=${options.uid} --regid=${options.uid} --clear-groups `,
  ];
  const script = `{ [ -z "$3" ] || { mkdir -p "$1/$3" && mount --bind "$3" "$1/$3"; }; } && ` +
    `mount --bind "$1/passwd" /etc/passwd && mount --rbind "$1/tmp" /tmp && ${mountCache}` +
    `cd "$2" && shift 3 && exec ${asUser}env -i "$@"`;
  return {
    command: "unshare",
    args: [
      "--mount",
      "--propagation",
      "private",
      "sh",
      "-c",
      script,
      "sh",
      options.root,
      options.cwd,
      keep,
      ...Object.entries(env).map(([key, value]) => `${key}=${value}`),
      Deno.execPath(),
      ...argv,
    ],
  };
}

/** Spawns `mcp/<name>/main.ts` isolated and connects the SDK's stdio client. */
export async function spawnIsolated(name: string, options: IsolatedOptions): Promise<StdioConnection> {
  const server = listServers().find((entry) => entry.name === name);
  if (!server) throw new Error(`No server "${name}" under mcp/`);
  const [run, ...rest] = runArgs(server);
  const { command: program, args } = command([run, ...(options.denoFlags ?? []), ...rest], options);
  const transport = new StdioClientTransport({ command: program, args, stderr: "inherit" });
  const client = new Client({ name: "isolated-test", version: "0.0.0" });
  await client.connect(transport);
  return {
    client,
    transport,
    pid: transport.pid,
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}

/** Runs `deno eval` of `script` isolated; returns its stdout. */
export async function evalIsolated(script: string, options: IsolatedOptions): Promise<string> {
  const { command: program, args } = command(["eval", "--quiet", script], options);
  const { success, stdout, stderr } = await new Deno.Command(program, { args, stdin: "null" }).output();
  const text = new TextDecoder().decode(stdout);
  if (!success) throw new Error(`isolated eval failed: ${new TextDecoder().decode(stderr)}${text}`);
  return text;
}

let denoDirOnce: string | undefined;

/** The DENO_DIR of this run: isolated processes have another home, so they are told where the cache is. */
function denoDir(): string {
  if (denoDirOnce) return denoDirOnce;
  const { stdout } = new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
    .outputSync();
  denoDirOnce = JSON.parse(new TextDecoder().decode(stdout)).denoDir as string;
  return denoDirOnce;
}
