/** One of this project's servers over stdio, started the way Continue starts it, for side-by-side benches. */
import { Client, StdioClientTransport } from "../../lib/mcp/sdk_client.ts";
import { listServers, runArgs } from "../../tools/catalog.ts";
import { type LineClient, startLineClient, type StdioCommand } from "./line_client.ts";

/** A started server: its client, its pid (for RSS readings) and how to stop it. */
export interface Started {
  client: Client;
  pid: number | null;
  close(): Promise<void>;
}

/** How server `name` (a folder under mcp/) is started with `workspace` as MCP_WORKSPACE and working directory. */
export function oursCommand(name: string, workspace: string): StdioCommand {
  const server = listServers().find((entry) => entry.name === name);
  if (!server) throw new Error(`No server "${name}" under mcp/`);
  return {
    command: Deno.execPath(),
    args: runArgs(server),
    cwd: workspace,
    env: { ...Deno.env.toObject(), MCP_WORKSPACE: workspace },
  };
}

/** Server `name` behind the SDK's client. */
export async function startOurs(name: string, workspace: string): Promise<Started> {
  const transport = new StdioClientTransport({ ...oursCommand(name, workspace), stderr: "ignore" });
  const client = new Client({ name: "bench", version: "0.0.0" });
  await client.connect(transport);
  return { client, pid: transport.pid, close: () => client.close() };
}

/** Server `name` behind the bare JSON-lines client (`line_client.ts`). */
export function startOursLines(name: string, workspace: string): Promise<LineClient> {
  return startLineClient(oursCommand(name, workspace));
}
