/**
 * gateway-mcp: the long tail of tools behind four small ones (gateway_search, gateway_describe,
 * gateway_call, gateway_call_read), over downstream MCP servers spawned over stdio or, for this project's
 * own servers, hosted in this process, or remote over Streamable HTTP / SSE with OAuth. Config: `--config
 * <file>` or `$MCP_GATEWAY_CONFIG`. `gateway-mcp auth <server>` authorises a remote server in a browser.
 * Permissions: those of every server it may host in process — --allow-read, --allow-write, --allow-env,
 * --allow-run (downstream processes, ripgrep, shells, sqlfluff) — and --allow-net (remote servers).
 * @module
 */
import { log } from "../../lib/log.ts";
import { serve } from "../../lib/mcp/serve.ts";
import { FILTER_PROCESS_FLAG, runFilterProcess } from "../shell/filter_process.ts";
import { parseServeArgs } from "../../lib/mcp/serve_args.ts";
import { boot, configFlag } from "./boot.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { refuseStatelessHosting } from "./stateless.ts";

if (Deno.args[0] === FILTER_PROCESS_FLAG) {
  // A compiled gateway hosting the shell server doubles as its output-filter process, as shell-mcp does.
  await runFilterProcess();
} else if (Deno.args[0] === "auth") {
  const { runAuthCommand } = await import("./auth_command.ts");
  Deno.exit(await runAuthCommand(Deno.args.slice(1), Deno.env.toObject()));
} else {
  const stateless = await refuseStatelessShell();
  // Over HTTP every session boots its own gateway (and downstream servers); a bad config ends the process.
  await serve(async (args) => {
    try {
      return await boot(args, Deno.env.toObject(), { stateless });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      log.error(`gateway-mcp: ${error.message}`);
      Deno.exit(1);
    }
  }, { passArgs: true });
}

/** Whether the gateway serves stateless HTTP; exits (2) at once when its config then hosts the shell builtin. */
async function refuseStatelessShell(): Promise<boolean> {
  const env = Deno.env.toObject();
  let parsed;
  try {
    parsed = parseServeArgs(Deno.args, env);
  } catch {
    return false; // A bad command line: serve() reports it.
  }
  if (!parsed.http?.stateless) return false;
  try {
    refuseStatelessHosting(await loadConfig(configFlag(parsed.rest), env));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log.error(`gateway-mcp: ${error.message}`);
    Deno.exit(2);
  }
  return true;
}
