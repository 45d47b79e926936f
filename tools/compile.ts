/**
 * `deno task compile [--target T] [--allow-net[=HOSTS]] [--list] [name...]`: `deno compile` every server (or
 * the named ones) into `dist/<name>-mcp[.exe]` with exactly its declared permissions (plus, only when
 * `--allow-net` asks for executables that can serve `--http`, the network and what the HTTP token file
 * needs). The list is every `mcp/*\/server.json`, so a new server is compiled (and released) without editing
 * anything; `--list` prints it and compiles nothing. Needs the `denort` runtime: Deno downloads it, or takes
 * the one `DENORT_BIN` points to.
 * @module
 */
import { join } from "node:path";
import { httpPermissions, listServers, REPO_ROOT, type ServerEntry } from "./catalog.ts";

/** The `deno compile` argv for one server. */
export function compileArgs(
  server: ServerEntry,
  options: { output: string; target?: string; allowNet?: string },
): string[] {
  return [
    "compile",
    "--no-prompt",
    ...server.permissions,
    // Only for HTTP mode (`--http`): stdio servers never get network access, nor the token file's needs.
    ...(options.allowNet === undefined ? [] : httpPermissions(server, { net: options.allowNet })),
    ...(server.include ?? []).flatMap((file) => ["--include", file]),
    ...(options.target ? ["--target", options.target] : []),
    "--output",
    options.output,
    server.entry,
  ];
}

/** Compiles `server` to `output`; false (with Deno's message on stderr) when compiling is impossible here. */
export async function compileServer(
  server: ServerEntry,
  options: { output: string; target?: string; allowNet?: string },
): Promise<boolean> {
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: compileArgs(server, options),
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return success;
}

if (import.meta.main) {
  const args = [...Deno.args];
  const targetAt = args.indexOf("--target");
  const target = targetAt >= 0 ? args.splice(targetAt, 2)[1] : undefined;
  // `--allow-net[=HOSTS]`: executables that can also serve `--http` (127.0.0.1 is enough for loopback).
  const netAt = args.findIndex((arg) => arg === "--allow-net" || arg.startsWith("--allow-net="));
  const allowNet = netAt >= 0 ? args.splice(netAt, 1)[0].slice("--allow-net=".length) : undefined;
  const listOnly = args.includes("--list");
  if (listOnly) args.splice(args.indexOf("--list"), 1);
  const servers = listServers().filter((server) => args.length === 0 || args.includes(server.name));
  if (listOnly) {
    Deno.stdout.writeSync(new TextEncoder().encode(servers.map((server) => `${server.name}\n`).join("")));
    Deno.exit(0);
  }
  let failed = 0;
  for (const server of servers) {
    const output = join(REPO_ROOT, "dist", `${server.name}-mcp`);
    if (!await compileServer(server, { output, target, allowNet })) failed++;
  }
  if (failed) {
    Deno.stderr.writeSync(new TextEncoder().encode(`${failed} server(s) failed to compile\n`));
    Deno.exit(1);
  }
}
