/**
 * Tokens at rest: o200k over name + description + input schema of every tool a server lists, which the
 * agent pays on every request. Ours per server, the toolkit direct and behind the gateway, each peer.
 * @module
 */
import { listServers } from "../../tools/catalog.ts";
import { listTokens } from "../../tools/tokens.ts";
import { type PeerKind, startPeer } from "../_support/peers.ts";
import type { Area, Row } from "./row.ts";
import { startOurs } from "../_support/ours.ts";

/**
 * Continue's own built-in tool lists, for reference (not measured here). 970: its 10 headless built-ins
 * (issue 17); 1,785: cn 1.5.47 `--auto`, 12 tools, measured by tests/e2e/continue/tools_size_e2e.ts
 * (docs/benchmarks.md "Continue CLI tools[]"), whose count includes the `{"type":"function"}` wrapper.
 */
export const CONTINUE_BUILTINS = { headless: 970, withEdit: 1_785 };

/** Our servers that make up the toolkit a user wires in (hello is a wiring demo, the gateway fronts them). */
export const TOOLKIT = ["edit", "fs", "notes", "search", "shell", "sql"];

const PEERS: [PeerKind, string][] = [
  ["desktop-commander", "Desktop Commander"],
  ["filesystem", "reference filesystem"],
  ["ripgrep", "mcp-ripgrep"],
  ["memory", "reference memory"],
];

async function listed(
  start: () => Promise<
    { client: { listTools(): Promise<{ tools: never[] }> } } & {
      close(): Promise<void>;
    }
  >,
): Promise<{ tools: number; tokens: number }> {
  const server = await start();
  try {
    const { tools } = await server.client.listTools();
    return { tools: tools.length, tokens: listTokens(tools) };
  } finally {
    await server.close();
  }
}

/** Measures the area; `workspace` is an empty temp folder. */
export async function tokensAtRest(workspace: string): Promise<Area> {
  const ours = new Map<string, { tools: number; tokens: number }>();
  for (const server of listServers()) {
    const config = `${workspace}/gateway.json`;
    if (server.name === "gateway") {
      await Deno.writeTextFile(
        config,
        JSON.stringify({ mcpServers: Object.fromEntries(TOOLKIT.map((name) => [name, { builtin: name }])) }),
      );
      Deno.env.set("MCP_GATEWAY_CONFIG", config);
    }
    // deno-lint-ignore no-explicit-any
    ours.set(server.name, await listed(() => startOurs(server.name, workspace) as any));
  }
  const peers = new Map<string, { tools: number; tokens: number }>();
  for (const [kind, label] of PEERS) {
    // deno-lint-ignore no-explicit-any
    peers.set(label, await listed(() => startPeer(kind, { workspace }) as any));
  }
  const tok = (map: Map<string, { tokens: number }>, key: string) => map.get(key)?.tokens ?? null;
  const direct = TOOLKIT.reduce((sum, name) => sum + (ours.get(name)?.tokens ?? 0), 0);
  const directTools = TOOLKIT.reduce((sum, name) => sum + (ours.get(name)?.tools ?? 0), 0);
  const fsRg = (tok(peers, "reference filesystem") ?? 0) + (tok(peers, "mcp-ripgrep") ?? 0);
  const allPeers = {
    "Desktop Commander": tok(peers, "Desktop Commander"),
    "filesystem + mcp-ripgrep": fsRg,
  };
  const rows: Row[] = [
    {
      metric: `toolkit direct (${TOOLKIT.join(", ")}: ${directTools} tools)`,
      unit: "tokens",
      ours: direct,
      peers: allPeers,
      better: "lower",
      target: { kind: "max", value: 2_500, unit: "tokens" },
    },
    {
      metric: `toolkit behind gateway-mcp (${ours.get("gateway")?.tools} tools)`,
      unit: "tokens",
      ours: tok(ours, "gateway"),
      peers: allPeers,
      better: "lower",
      target: { kind: "max", value: 500, unit: "tokens" },
    },
    {
      metric: "fs-mcp vs reference filesystem",
      unit: "tokens",
      ours: tok(ours, "fs"),
      peers: { "reference filesystem": tok(peers, "reference filesystem") },
      better: "lower",
    },
    {
      metric: "search-mcp vs mcp-ripgrep",
      unit: "tokens",
      ours: tok(ours, "search"),
      peers: { "mcp-ripgrep": tok(peers, "mcp-ripgrep") },
      better: "lower",
    },
    {
      metric: "notes-mcp vs reference memory",
      unit: "tokens",
      ours: tok(ours, "notes"),
      peers: { "reference memory": tok(peers, "reference memory") },
      better: "lower",
    },
    {
      metric: "shell + search + edit + fs vs Desktop Commander",
      unit: "tokens",
      ours: ["shell", "search", "edit", "fs"].reduce((sum, name) => sum + (ours.get(name)?.tokens ?? 0), 0),
      peers: { "Desktop Commander": tok(peers, "Desktop Commander") },
      better: "lower",
    },
  ];
  const perServer = [...ours].map(([name, { tools, tokens }]) => `${name}-mcp ${tokens} (${tools} tools)`);
  const perPeer = [...peers].map(([name, { tools, tokens }]) => `${name} ${tokens} (${tools} tools)`);
  return {
    id: "tokens",
    title: "Tokens at rest",
    method: "o200k tokens (gpt-tokenizer) of name + description + JSON input schema of every tool in each " +
      "server's tools/list over stdio, paid on every model request. Deterministic: machine load does not " +
      "change them.",
    peerColumns: [
      "Desktop Commander",
      "filesystem + mcp-ripgrep",
      "reference filesystem",
      "mcp-ripgrep",
      "reference memory",
    ],
    rows,
    details: [
      `Each of ours: ${perServer.join(", ")}.`,
      `Each peer: ${perPeer.join(", ")}.`,
      `Continue's built-ins, for reference (not measured here): ${CONTINUE_BUILTINS.headless} tokens for its ` +
      `10 headless built-ins (issue 17), ${
        CONTINUE_BUILTINS.withEdit.toLocaleString("en-US")
      } for cn 1.5.47's ` +
      "12 with Edit/Write (`tools[]` as sent, measured by tests/e2e/continue/tools_size_e2e.ts; see " +
      "docs/benchmarks.md).",
    ],
  };
}
