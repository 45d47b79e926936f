/**
 * The toolkits the report compares, each started over stdio on a workspace as a user would wire it: ours
 * (several `deno run` servers), Desktop Commander alone, and the reference filesystem server + mcp-ripgrep.
 * A toolkit routes a call to whichever of its servers lists the tool.
 * @module
 */
import { Client, StdioClientTransport } from "../../lib/mcp/sdk_client.ts";
import { listServers, runArgs } from "../../tools/catalog.ts";
import type { ListedTool } from "../../tools/tokens.ts";
import { type PeerKind, startPeer } from "../_support/peers.ts";

/** A started server of a toolkit. */
export interface Started {
  client: Client;
  pid: number | null;
  close(): Promise<void>;
}

/** What the model gets back from one call: the text parts joined, and whether it was an error. */
export interface CallResult {
  text: string;
  isError: boolean;
}

/** Several servers behind one call(): what the agent sees when they are all wired in. */
export interface Toolkit {
  label: string;
  tools: ListedTool[];
  call(name: string, args: Record<string, unknown>): Promise<CallResult>;
  close(): Promise<void>;
}

/** One of this project's servers over stdio, its workspace `workspace`. */
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
  const client = new Client({ name: "bench-peers", version: "0.0.0" });
  await client.connect(transport);
  return { client, pid: transport.pid, close: () => client.close() };
}

/** The text a result carries to the model (text parts; other parts as their JSON). */
export function resultText(result: unknown): CallResult {
  const { content, isError } = result as { content?: { type: string; text?: string }[]; isError?: boolean };
  const text = (content ?? []).map((part) => part.type === "text" ? part.text ?? "" : JSON.stringify(part))
    .join("\n");
  return { text, isError: Boolean(isError) };
}

async function combine(label: string, started: Started[]): Promise<Toolkit> {
  const owner = new Map<string, Client>();
  const tools: ListedTool[] = [];
  for (const server of started) {
    for (const tool of (await server.client.listTools()).tools) {
      owner.set(tool.name, server.client);
      tools.push(tool);
    }
  }
  return {
    label,
    tools,
    async call(name, args) {
      const client = owner.get(name);
      if (!client) throw new Error(`${label} has no tool "${name}"`);
      return resultText(await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 }));
    },
    async close() {
      for (const server of started) await server.close();
    },
  };
}

/** Our servers `names`, wired in directly. */
export async function oursToolkit(names: string[], workspace: string): Promise<Toolkit> {
  const started = await Promise.all(names.map((name) => startOurs(name, workspace)));
  return combine(`continue-mcp (${names.join(", ")})`, started);
}

/** Peer servers `kinds` wired in together. */
export async function peerToolkit(label: string, kinds: PeerKind[], workspace: string): Promise<Toolkit> {
  const started = await Promise.all(kinds.map((kind) => startPeer(kind, { workspace })));
  return combine(label, started);
}
