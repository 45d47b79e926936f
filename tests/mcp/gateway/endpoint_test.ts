import assert from "node:assert/strict";
import { endpointKey } from "../../../mcp/gateway/endpoint.ts";
import type { ServerConfig } from "../../../mcp/gateway/types.ts";

function stdio(
  name: string,
  transport: Partial<{ command: string; args: string[]; env: Record<string, string>; cwd: string }> = {},
): ServerConfig {
  return {
    name,
    prefix: name,
    transport: { kind: "stdio", command: "npx", args: ["-y", "srv"], env: {}, ...transport },
    enabled: true,
    connectTimeoutMs: 30_000,
    callTimeoutMs: 60_000,
    tools: { allow: [], deny: [] },
    descriptions: {},
  };
}

Deno.test("endpoint: same command, args, cwd and env (in any order) → one key, whatever the name and filters", () => {
  const a = stdio("a", { env: { A: "1", B: "2" }, cwd: "/w" });
  const b = { ...stdio("b", { env: { B: "2", A: "1" }, cwd: "/w" }), tools: { allow: ["x"], deny: [] } };
  assert.equal(endpointKey(a), endpointKey(b));
});

Deno.test("endpoint: any difference in command, args, their order, cwd or env → another key", () => {
  const base = endpointKey(stdio("a", { env: { A: "1" }, cwd: "/w" }));
  const others = [
    stdio("a", { command: "node", env: { A: "1" }, cwd: "/w" }),
    stdio("a", { args: ["srv", "-y"], env: { A: "1" }, cwd: "/w" }),
    stdio("a", { args: ["-y srv"], env: { A: "1" }, cwd: "/w" }),
    stdio("a", { env: { A: "2" }, cwd: "/w" }),
    stdio("a", { env: { A: "1", B: "" }, cwd: "/w" }),
    stdio("a", { env: { A: "1" }, cwd: "/x" }),
    stdio("a", { env: { A: "1" } }),
  ];
  for (const other of others) assert.notEqual(endpointKey(other), base, JSON.stringify(other.transport));
  assert.equal(new Set(others.map(endpointKey)).size, others.length);
});

Deno.test("endpoint: a builtin's key is builtin:<server>, shared by entries naming the same builtin", () => {
  const fs: ServerConfig = { ...stdio("fs"), transport: { kind: "builtin", server: "fs" } };
  const files: ServerConfig = { ...stdio("files"), transport: { kind: "builtin", server: "fs" } };
  assert.equal(endpointKey(fs), "builtin:fs");
  assert.equal(endpointKey(files), endpointKey(fs));
  assert.notEqual(endpointKey(stdio("builtin:fs", { command: "builtin:fs", args: [] })), "builtin:fs");
});
