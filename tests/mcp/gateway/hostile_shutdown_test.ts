/**
 * Every way a gateway ends (SIGTERM, its stdin closed, an HTTP session closed) kills each downstream
 * server's whole process tree: a server that exits on stdin EOF but leaves a child running must not leak it.
 */
import assert from "node:assert/strict";
import { listServers, runArgs } from "../../../tools/catalog.ts";
import { LineTransport } from "../../../lib/mcp/line_transport.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { Client } from "../../../lib/mcp/sdk_client.ts";
import { os } from "../../../lib/platform/mod.ts";
import { listProcesses, readMarkers } from "../../../lib/process/processes.ts";
import { connectHttpClient, spawnHttp } from "../../_support/http.ts";
import { textOf } from "../../_support/connect.ts";
import { waitFor } from "../../_support/poll.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { scriptServer } from "./_config.ts";

const posixOnly = { ignore: os === "windows" };
/** The marker sweep reads /proc/<pid>/environ. */
const linuxOnly = { ignore: os !== "linux" };

async function alive(pid: number): Promise<boolean> {
  const rows = await listProcesses();
  return rows?.some((row) => row.pid === pid && !row.zombie) ?? false;
}

/** A config file hosting the hostile server, whose `child` tool leaves a `sleep` running. */
async function hostileConfig(dir: { join(path: string): string }): Promise<string> {
  const entry = scriptServer("hostile", "hostile.ts");
  if (entry.transport.kind !== "stdio") throw new Error("a stdio entry");
  const { command, args } = entry.transport;
  const file = dir.join("gateway.jsonc");
  await Deno.writeTextFile(file, JSON.stringify({ mcpServers: { hostile: { command, args } } }));
  return file;
}

/** gateway-mcp over stdio with its stdin in our hands: a client on its pipes, the child, and stdin's close. */
async function spawnGateway(config: string) {
  const gateway = listServers().find((entry) => entry.name === "gateway")!;
  const child = new Deno.Command(Deno.execPath(), {
    args: runArgs(gateway),
    env: { MCP_GATEWAY_CONFIG: config },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const stdin = child.stdin.getWriter();
  const client = new Client({ name: "shutdown-test", version: "0.0.0" });
  await client.connect(
    new LineTransport(child.stdout, new WritableStream({ write: (chunk) => stdin.write(chunk) })),
  );
  const sleeper = Number(textOf(
    await client.callTool({ name: "gateway_call", arguments: { name: "hostile__child" } }) as CallToolResult,
  ));
  assert.ok(sleeper > 0 && await alive(sleeper), "the downstream server's child runs");
  return { child, sleeper, closeStdin: () => stdin.close(), client };
}

for (
  const [how, end] of [
    ["SIGTERM", (gateway: Awaited<ReturnType<typeof spawnGateway>>) => gateway.child.kill("SIGTERM")],
    ["its stdin closed", (gateway: Awaited<ReturnType<typeof spawnGateway>>) => gateway.closeStdin()],
  ] as const
) {
  Deno.test(
    `hostile shutdown: a gateway ended by ${how} kills the downstream server's children`,
    posixOnly,
    async () => {
      await using dir = await tempWorkspace();
      const gateway = await spawnGateway(await hostileConfig(dir));
      await end(gateway);
      await gateway.child.status;
      await gateway.client.close();
      await waitFor("the downstream server's child to die", async () => !await alive(gateway.sleeper));
    },
  );
}

/** Pids of our processes carrying gateway `pid`'s marker (`CONTINUE_MCP_GATEWAY=<pid>-…`). */
async function markedBy(pid: number): Promise<number[]> {
  const found = await readMarkers("CONTINUE_MCP_GATEWAY");
  return found.filter(({ value }) => value.startsWith(`${pid}-`)).map((entry) => entry.pid);
}

for (
  const [how, end] of [
    ["SIGTERM", (gateway: Awaited<ReturnType<typeof spawnGateway>>) => gateway.child.kill("SIGTERM")],
    ["its stdin closed", (gateway: Awaited<ReturnType<typeof spawnGateway>>) => gateway.closeStdin()],
  ] as const
) {
  Deno.test(
    `hostile shutdown: a gateway ended by ${how} kills what its servers left in sessions of their own`,
    linuxOnly,
    async () => {
      await using dir = await tempWorkspace();
      const gateway = await spawnGateway(await hostileConfig(dir));
      const escapees = textOf(
        await gateway.client.callTool({
          name: "gateway_call",
          arguments: { name: "hostile__escapees" },
        }) as CallToolResult,
      ).split(" ").map(Number);
      try {
        const marked = await markedBy(gateway.child.pid);
        for (const pid of escapees) assert.ok(marked.includes(pid), `${pid} carries the marker: ${marked}`);
        await end(gateway);
        await gateway.child.status;
        await gateway.client.close();
        await waitFor(
          "no process with the gateway's marker",
          async () => (await markedBy(gateway.child.pid)).length === 0,
        );
      } finally {
        for (const pid of escapees) {
          try {
            Deno.kill(pid, "SIGKILL");
          } catch {
            // Gone, as it should be.
          }
        }
      }
    },
  );
}

Deno.test(
  "hostile shutdown: a closed HTTP session kills its downstream server's children",
  posixOnly,
  async () => {
    await using dir = await tempWorkspace();
    await using server = await spawnHttp("gateway", {
      auth: "none",
      env: { MCP_GATEWAY_CONFIG: await hostileConfig(dir) },
    });
    const { client, transport } = await connectHttpClient(server.url);
    const sleeper = Number(textOf(
      await client.callTool({
        name: "gateway_call",
        arguments: { name: "hostile__child" },
      }) as CallToolResult,
    ));
    assert.ok(sleeper > 0 && await alive(sleeper));
    await transport.terminateSession();
    await client.close();
    await waitFor("the downstream server's child to die", async () => !await alive(sleeper));
  },
);
