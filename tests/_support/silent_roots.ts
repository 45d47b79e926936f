/**
 * A real stdio client that declares roots (with listChanged) and never answers roots/list, as the MCP
 * Inspector CLI under Deno over HTTP was seen to: each question stays open until the connection closes.
 * @module
 */
import { ListRootsRequestSchema } from "../../lib/mcp/sdk.ts";
import { Client, StdioClientTransport } from "../../lib/mcp/sdk_client.ts";
import { listServers, runArgs } from "../../tools/catalog.ts";

/** Far above the servers' roots patience, far below the SDK's 60 s: a hang guard, not a speed check. */
export const HANG_GUARD_MS = 30_000;

/** The spawned server, the silent client, and the server's whole stderr once closed. */
export interface SilentRootsClient extends AsyncDisposable {
  client: Client;
  /** How many roots/list requests the server sent. */
  asked(): number;
  /** Closes the connection (the server exits) and returns everything it wrote to stderr. */
  closeAndReadStderr(): Promise<string>;
}

/** Spawns `mcp/<name>/main.ts` with its declared permissions behind a client that never answers roots. */
export async function spawnSilentRoots(
  name: string,
  options: { cwd: string; env?: Record<string, string> },
): Promise<SilentRootsClient> {
  const server = listServers().find((entry) => entry.name === name);
  if (!server) throw new Error(`No server "${name}" under mcp/`);
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: runArgs(server),
    cwd: options.cwd,
    env: { ...Deno.env.toObject(), DENO_NO_UPDATE_CHECK: "1", ...options.env },
    stderr: "pipe",
  });
  const stderr = new Response(transport.stderr as unknown as ReadableStream<Uint8Array>).text();
  const client = new Client({ name: "silent-roots", version: "0" }, {
    capabilities: { roots: { listChanged: true } },
  });
  let asked = 0;
  client.setRequestHandler(ListRootsRequestSchema, () => {
    asked++;
    return new Promise<never>(() => {});
  });
  await client.connect(transport);
  const close = async () => {
    await client.close();
    return await stderr;
  };
  return {
    client,
    asked: () => asked,
    closeAndReadStderr: close,
    async [Symbol.asyncDispose]() {
      await close();
    },
  };
}
