/**
 * The doctor's gateway section: connects to every downstream server of the gateway's config (the
 * `MCP_GATEWAY_CONFIG` file) as gateway-mcp would, and reports each one's state, tools and shared
 * connections.
 * @module
 */
import { CONFIG_ENV, loadConfig } from "../mcp/gateway/config.ts";
import { Downstreams } from "../mcp/gateway/downstream.ts";

/** Rows for the doctor's table, and the problems to report; none without a config. */
export async function gatewayHealth(
  env: Record<string, string | undefined>,
): Promise<{ heading: string; rows: string[][]; problems: string[] }> {
  if (!env[CONFIG_ENV]) {
    return {
      heading: `gateway: no config (set ${CONFIG_ENV}; example: mcp/gateway/gateway.config.example.jsonc)`,
      rows: [],
      problems: [],
    };
  }
  let config;
  try {
    config = await loadConfig(undefined, env);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      heading: `gateway: config ${env[CONFIG_ENV]}`,
      rows: [],
      problems: [`gateway config: ${message}`],
    };
  }
  const quiet = { info() {}, error() {} };
  await using downstreams = new Downstreams(config.servers, { log: quiet });
  await downstreams.start();
  const rows = [["downstream", "state", "tools", "note"]];
  const problems: string[] = [];
  for (const status of downstreams.status()) {
    const shared = status.sharedWith?.length
      ? `shares its connection with ${status.sharedWith.join(", ")}`
      : "";
    rows.push([
      status.name,
      status.needsAuth ? "needs auth" : status.state,
      String(status.tools),
      status.reason ?? shared,
    ]);
    if (status.state === "down") problems.push(`gateway downstream ${status.name}: ${status.reason}`);
  }
  return { heading: `gateway: config ${config.file}`, rows, problems };
}
