/** One of this project's servers over stdio, started the way Continue starts it, for side-by-side benches. */
import { Client, StdioClientTransport } from "../../lib/mcp/sdk_client.ts";
import { listServers, runArgs } from "../../tools/catalog.ts";

/** A started server: its client, its pid (for RSS readings) and how to stop it. */
export interface Started {
  client: Client;
  pid: number | null;
  close(): Promise<void>;
}

/** Server `name` (a folder under mcp/) with `workspace` as its MCP_WORKSPACE and working directory. */
export async function startOurs(name: string, workspace: string): Promise<Started> {
  const server = listServers().find((entry) => entry.name === name);
  if (!server) throw new Error(`No server "${name}" under mcp/`);
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: runArgs(server),
    cwd: workspace,
    env: { ...Deno.env.toObject(), MCP_WORKSPACE: workspace },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "0.0.0" });
  await client.connect(transport);
  return { client, pid: transport.pid, close: () => client.close() };
}
