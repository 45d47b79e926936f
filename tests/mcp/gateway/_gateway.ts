/** The gateway as boot() builds it, over real downstream servers, with a real SDK client upstream. */
import { frontDownstreams } from "../../../mcp/gateway/boot.ts";
import { type DownstreamDeps, Downstreams } from "../../../mcp/gateway/downstream.ts";
import type { ServerConfig } from "../../../mcp/gateway/types.ts";
import { loadServerSdk } from "../../../lib/mcp/server.ts";
import type { CallToolResult, ClientCapabilities } from "../../../lib/mcp/sdk.ts";
import { Client, InMemoryTransport } from "../../../lib/mcp/sdk_client.ts";
import { textOf } from "../../_support/connect.ts";

/** A connected upstream client, its gateway's Downstreams, and what the gateway logged. */
export interface Front extends AsyncDisposable {
  client: Client;
  downstreams: Downstreams;
  logs: string[];
  /** gateway_call of `name` with `args`: the whole result. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** gateway_search's text. */
  search(query: string): Promise<string>;
}

/** Options: the upstream client's capabilities (set its handlers on `client` before calls). */
export interface FrontOptions extends DownstreamDeps {
  capabilities?: ClientCapabilities;
  prepare?: (client: Client) => void;
}

/** The gateway over `configs`; the servers connect at the client's initialize, which waits for them. */
export async function front(configs: ServerConfig[], options: FrontOptions = {}): Promise<Front> {
  const logs: string[] = [];
  const push = (line: string) => logs.push(line);
  const { capabilities = {}, prepare, ...deps } = options;
  const downstreams = new Downstreams(configs, { log: { info: push, error: push }, ...deps });
  await loadServerSdk();
  const handle = frontDownstreams(downstreams, {
    workspaceRoots: [],
    cleanup: () => downstreams.close(),
    waitMs: 60_000,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "upstream", version: "0.0.0" }, { capabilities });
  prepare?.(client);
  await handle.server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    downstreams,
    logs,
    call: async (name, args = {}) =>
      await client.callTool({ name: "gateway_call", arguments: { name, arguments: args } }) as CallToolResult,
    search: async (query) =>
      textOf(await client.callTool({ name: "gateway_search", arguments: { query } }) as CallToolResult),
    async [Symbol.asyncDispose]() {
      await client.close();
      await handle.close();
    },
  };
}
