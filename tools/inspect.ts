/** Starts a server over stdio exactly as Continue would and reads its tools: shared by doctor, readme, tests. */
import { type Tool } from "../lib/mcp/sdk.ts";
import { Client, StdioClientTransport } from "../lib/mcp/sdk_client.ts";
import { runArgs, type ServerEntry } from "./catalog.ts";

/** What one server showed when started. */
export interface Inspection {
  name: string;
  ok: boolean;
  tools: Tool[];
  /** Spawn → initialize → tools/list, in milliseconds. */
  startupMs: number;
  /** Result text of the smoke call, when the server declares one. */
  smoke?: { tool: string; ok: boolean; text: string };
  /** Why it failed, with the server's stderr. */
  error?: string;
}

/**
 * Spawns `server` with `cwd` as its workspace, lists its tools, runs its smoke call, and stops it. Runs
 * `deno run` on its entry unless `command` names an installed executable (the release smoke test).
 */
export async function inspectServer(
  server: ServerEntry,
  options: { cwd: string; timeoutMs?: number; command?: string; env?: Record<string, string> },
): Promise<Inspection> {
  const transport = new StdioClientTransport({
    command: options.command ?? Deno.execPath(),
    args: options.command ? [] : runArgs(server),
    cwd: options.cwd,
    env: options.env ?? Deno.env.toObject(),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "continue-mcp-doctor", version: "0.0.0" });
  const started = performance.now();
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 20_000);
  try {
    await client.connect(transport, { signal: timeout });
    const { tools } = await client.listTools(undefined, { signal: timeout });
    const startupMs = performance.now() - started;
    const smoke = server.smoke ? await smokeCall(client, server.smoke, timeout) : undefined;
    return { name: server.name, ok: !smoke || smoke.ok, tools, startupMs, smoke };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      name: server.name,
      ok: false,
      tools: [],
      startupMs: performance.now() - started,
      error: `${reason}${stderr ? `\n${stderr.trim()}` : ""}`,
    };
  } finally {
    await client.close().catch(() => {});
  }
}

async function smokeCall(
  client: Client,
  smoke: NonNullable<ServerEntry["smoke"]>,
  signal: AbortSignal,
): Promise<Inspection["smoke"]> {
  const result = await client.callTool({ name: smoke.tool, arguments: smoke.arguments ?? {} }, undefined, {
    signal,
  });
  const first = (result.content as { type: string; text?: string }[])[0];
  const text = first?.type === "text" ? first.text ?? "" : `(${first?.type ?? "no"} content)`;
  return { tool: smoke.tool, ok: !result.isError, text };
}
