/** Spawns a server entrypoint with `deno run` exactly as Continue would, and speaks real JSON-RPC to it. */
import { Client, StdioClientTransport } from "../../lib/mcp/sdk_client.ts";
import { fileURLToPath as fromFileUrl } from "node:url";
import { listServers, runArgs } from "../../tools/catalog.ts";

/** A real client connected to a spawned server. */
export interface StdioConnection extends AsyncDisposable {
  client: Client;
  transport: StdioClientTransport;
  /** The child's pid. */
  pid: number | null;
}

/** Spawns `mcp/<name>/main.ts` with its declared permissions and connects the SDK's stdio client. */
export async function spawnStdio(
  name: string,
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<StdioConnection> {
  const server = listServers().find((entry) => entry.name === name);
  if (!server) throw new Error(`No server "${name}" under mcp/`);
  return await connectStdio(runArgs(server), options);
}

/**
 * Spawns the `main.ts` in `dir` with the permissions its `server.json` declares: for a server that is not
 * (yet) under mcp/, such as templates/server/.
 */
export async function spawnServerDir(
  dir: URL,
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<StdioConnection> {
  const { permissions } = JSON.parse(await Deno.readTextFile(new URL("server.json", dir)));
  return await connectStdio(
    ["run", "--no-prompt", "--quiet", ...permissions, fromFileUrl(new URL("main.ts", dir))],
    options,
  );
}

async function connectStdio(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> },
): Promise<StdioConnection> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args,
    cwd: options.cwd,
    env: { ...Deno.env.toObject(), ...options.env },
    stderr: "pipe",
  });
  const client = new Client({ name: "stdio-test", version: "0.0.0" });
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
