/**
 * `gateway-mcp auth <server> [--config <file>]`: authorises the gateway with a remote server that asks for
 * OAuth, in a terminal, and stores the tokens in the user's config folder. The gateway itself, serving an
 * agent, never opens a browser; its error for such a server names this command.
 * @module
 */
import { log } from "../../lib/log.ts";
import { openInBrowser } from "../../lib/platform/mod.ts";
import { configFlag } from "./boot.ts";
import { loadConfig } from "./config.ts";
import { authorizeServer } from "./oauth/authorize.ts";
import { defaultTokenDir } from "./oauth/token_store.ts";

/** Runs the command; returns the exit code. */
export async function runAuthCommand(
  args: readonly string[],
  env: Record<string, string | undefined>,
): Promise<number> {
  const names = args.filter((arg, i) => !arg.startsWith("--config") && args[i - 1] !== "--config");
  const unknown = names.find((arg) => arg.startsWith("-"));
  if (names.length !== 1 || unknown) {
    log.error(
      `gateway-mcp auth: ${unknown ? `unknown option "${unknown}"` : "expected one server name"}; ` +
        "usage: gateway-mcp auth <server> [--config <file>]",
    );
    return 2;
  }
  const name = names[0];
  try {
    const config = await loadConfig(configFlag(args), env);
    const tokenDir = defaultTokenDir(env);
    const result = await authorizeServer({
      config,
      name,
      tokenDir,
      open: (url) => openInBrowser(url.href),
      say: (line) => log.info(line),
    });
    log.info(
      result.authorised
        ? `Authorised "${name}": ${result.tools} tools; tokens stored under ${tokenDir}`
        : `"${name}" lets the gateway in without authorisation (${result.tools} tools): nothing to store`,
    );
    return 0;
  } catch (error) {
    log.error(`gateway-mcp auth: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
