/**
 * shell-mcp: a background-job terminal (shell_run, shell_start, shell_output, shell_input, shell_kill,
 * shell_list). Permissions: --allow-run (shells, signals, taskkill), --allow-read (workspace, PATH lookup,
 * /proc for process trees), --allow-env (PATH, the jobs' environment), --allow-write (temp script files of
 * commands too long for the OS argument limit; --allow-run already lets jobs write anywhere), --allow-ffi
 * (Windows: each job's tree in a Job Object, see lib/platform/windows_job.ts).
 * @module
 */
import { log } from "../../lib/log.ts";
import { serve } from "../../lib/mcp/serve.ts";
import { boot } from "./boot.ts";
import { FILTER_PROCESS_FLAG, runFilterProcess } from "./filter_process.ts";
import { reapOrphans } from "./orphans.ts";

if (Deno.args[0] === FILTER_PROCESS_FLAG) {
  // The compiled executable doubles as the process that runs output filters (see filter.ts).
  await runFilterProcess();
} else {
  // Jobs of a server that died without its watchdog (killed with it, say) are found by their marker.
  reapOrphans().then(
    (pids) =>
      pids.length && log.info(`Reaped ${pids.length} processes of a dead shell server: ${pids.join(", ")}`),
    (error) => log.error("Cannot reap the jobs of dead shell servers", error),
  );
  await serve(boot);
}
