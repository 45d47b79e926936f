/**
 * shell-mcp: a background-job terminal (shell_run, shell_start, shell_output, shell_input, shell_kill,
 * shell_list). Permissions: --allow-run (shells, signals, taskkill), --allow-read (workspace, PATH lookup,
 * /proc for process trees), --allow-env (PATH, the jobs' environment), --allow-write (temp script files of
 * commands too long for the OS argument limit; --allow-run already lets jobs write anywhere), --allow-ffi
 * (Linux: libc's prctl/waitpid so that orphaned job processes stay ours, see lib/process/adoption.ts;
 * Windows: each job's tree in a Job Object, see lib/platform/windows_job.ts), --allow-net (the sandbox's
 * allow-list proxy: a unix socket per job, name lookups and connections to the allowed hosts).
 * @module
 */
import { log } from "../../lib/log.ts";
import { serve } from "../../lib/mcp/serve.ts";
import { parseServeArgs } from "../../lib/mcp/serve_args.ts";
import { manifestOf } from "../../lib/mcp/manifest.ts";
import { adoption } from "../../lib/process/adoption.ts";
import server from "./server.json" with { type: "json" };
import tools from "./tools.json" with { type: "json" };
import { FILTER_PROCESS_FLAG, runFilterProcess } from "./filter_process.ts";

if (Deno.args[0] === FILTER_PROCESS_FLAG) {
  // The compiled executable doubles as the process that runs output filters (see filter.ts).
  await runFilterProcess();
} else {
  refuseStateless();
  // The handshake is answered from the committed files; the server's modules load after it (cold start).
  await serve(async () => {
    // Before any job starts: from now on what a job orphans becomes our child, not init's.
    adoption.enable();
    // Jobs of a server that died without its watchdog (killed with it, say) are found by their marker.
    (await import("./orphans.ts")).reapOrphans().then(
      (pids) =>
        pids.length && log.info(`Reaped ${pids.length} processes of a dead shell server: ${pids.join(", ")}`),
      (error) => log.error("Cannot reap the jobs of dead shell servers", error),
    );
    return (await import("./boot.ts")).boot();
  }, { manifest: manifestOf("shell", server, tools) });
}

/**
 * Stateless HTTP builds a server per request and cleans it up when the answer is sent: every job would be
 * killed at the end of the call that started it, and no later call could find it. A terminal is stateful.
 */
function refuseStateless(): void {
  let stateless = false;
  try {
    stateless = parseServeArgs(Deno.args, Deno.env.toObject()).http?.stateless ?? false;
  } catch {
    // A bad command line: serve() reports it.
  }
  if (!stateless) return;
  log.error(
    "Cannot serve shell-mcp stateless: its jobs, their output and cursors live between calls, and a " +
      "stateless server would kill each job when the request that started it ends; drop --stateless " +
      "(and MCP_HTTP_STATELESS) and let clients keep a session",
  );
  Deno.exit(2);
}
