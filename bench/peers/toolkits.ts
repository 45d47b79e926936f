/**
 * The toolkits the report compares, each started over stdio on a workspace as a user would wire it: ours
 * (several `deno run` servers), Desktop Commander alone, and the reference filesystem server + mcp-ripgrep.
 * A toolkit routes a call to whichever of its servers lists the tool.
 * @module
 */
import type { Client } from "../../lib/mcp/sdk_client.ts";
import { type Started, startOurs } from "../_support/ours.ts";
import type { ListedTool } from "../../tools/tokens.ts";
import { type PeerKind, startPeer } from "../_support/peers.ts";

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
