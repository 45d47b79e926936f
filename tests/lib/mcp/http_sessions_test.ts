import assert from "node:assert/strict";
import { serveHttp } from "../../../lib/mcp/http.ts";
import { createMcpServer } from "../../../lib/mcp/server.ts";
import { createTools } from "../../../mcp/hello/tools.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { listServers, runArgs } from "../../../tools/catalog.ts";
import { spawnHttp } from "../../_support/http.ts";
import { INITIALIZE_BODY, postStatus } from "../../_support/raw_http.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { waitFor } from "../../_support/poll.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
};

/** Boots hello servers, counting boots and cleanups. */
function countingHello() {
  const counts = { booted: 0, closed: 0 };
  const boot = () => {
    counts.booted++;
    return createMcpServer({
      name: "hello",
      instructions: "Counts its boots and cleanups.",
      tools: createTools({ workspace: Workspace.fromEnv() }),
      cleanup: () => void counts.closed++,
    });
  };
  return { counts, boot };
}

/** Opens a session with a bare initialize (its answer read to the end) and returns its id. */
async function initializeOnly(url: string): Promise<string> {
  const response = await fetch(url, { method: "POST", headers: HEADERS, body: INITIALIZE_BODY });
  assert.equal(response.status, 200);
  await response.text();
  return response.headers.get("mcp-session-id")!;
}

/** A tools/list in session `id`; the status. */
async function listTools(url: string, id: string): Promise<number> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  return await postStatus(url, body, { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" });
}

Deno.test("http sessions: at the cap a new initialize evicts the longest-idle session, else gets 503 without a boot", async () => {
  const { counts, boot } = countingHello();
  const server = await serveHttp(boot, { listen: { hostname: "127.0.0.1", port: 0 }, maxSessions: 3 });
  const streams: Response[] = [];
  try {
    const first = await initializeOnly(server.url);
    const rest = [await initializeOnly(server.url), await initializeOnly(server.url)];
    rest.push(await initializeOnly(server.url));
    await waitFor("the evicted session's cleanup", () => counts.closed === 1);
    assert.equal(server.sessionCount(), 3);
    assert.equal(await listTools(server.url, first), 404);
    // A session whose client holds its GET stream is in use: never evicted.
    for (const id of rest) {
      const stream = await fetch(server.url, { headers: { ...HEADERS, "mcp-session-id": id } });
      assert.equal(stream.status, 200);
      streams.push(stream);
    }
    const refused = await fetch(server.url, { method: "POST", headers: HEADERS, body: INITIALIZE_BODY });
    assert.equal(refused.status, 503);
    assert.match((await refused.json()).error.message, /3 sessions are open and in use/);
    assert.equal(counts.booted, 4);
    assert.equal(server.sessionCount(), 3);
  } finally {
    for (const stream of streams) await stream.body?.cancel();
    await server.close();
  }
});

Deno.test("http sessions: a session never used after its initialize expires sooner than a used one", async () => {
  const { counts, boot } = countingHello();
  const server = await serveHttp(boot, {
    listen: { hostname: "127.0.0.1", port: 0 },
    unusedSessionMs: 100,
    sessionIdleMs: 0,
  });
  try {
    // Used at once, so it never counts as unused, however slow this machine is.
    const used = await initializeOnly(server.url);
    assert.equal(await listTools(server.url, used), 200);
    const unused = await initializeOnly(server.url);
    await waitFor("the unused session's cleanup", () => counts.closed === 1);
    assert.equal(server.sessionCount(), 1);
    assert.equal(await listTools(server.url, unused), 404);
    assert.equal(await listTools(server.url, used), 200);
  } finally {
    await server.close();
  }
});

Deno.test("http sessions: 200 initialize-only sessions against a spawned server keep at most the cap open", async () => {
  await using server = await spawnHttp("hello", { env: { MCP_HTTP_MAX_SESSIONS: "8" } });
  for (let i = 0; i < 200; i++) {
    assert.equal(await postStatus(server.url, INITIALIZE_BODY, server.headers), 200);
  }
  const evicted = () => server.stderr().match(/to make room for a new one/g)?.length ?? 0;
  await waitFor("192 evictions in the log", () => evicted() === 192);
});

/** Processes below `pid`, as `ps` lists them. */
async function descendants(pid: number): Promise<number[]> {
  const output = await new Deno.Command("ps", { args: ["-A", "-o", "pid=,ppid="], stderr: "null" }).output();
  const children = new Map<number, number[]>();
  for (const line of new TextDecoder().decode(output.stdout).trim().split("\n")) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    children.set(parent, [...children.get(parent) ?? [], child]);
  }
  const below = (id: number): number[] =>
    (children.get(id) ?? []).flatMap((child) => [child, ...below(child)]);
  return below(pid);
}

Deno.test({
  name: "http sessions: the gateway's downstream processes stay bounded by the session cap",
  ignore: isWindows,
}, async () => {
  await using workspace = await tempWorkspace();
  const entry = (name: string) => {
    const server = listServers().find((candidate) => candidate.name === name)!;
    return { command: Deno.execPath(), args: runArgs(server) };
  };
  const config = workspace.join("gateway.json");
  await Deno.writeTextFile(config, JSON.stringify({ mcpServers: { a: entry("hello"), b: entry("notes") } }));
  await using server = await spawnHttp("gateway", {
    args: ["--config", config],
    cwd: workspace.path,
    env: { MCP_HTTP_MAX_SESSIONS: "2", MCP_WORKSPACE: workspace.path },
  });
  for (let i = 0; i < 5; i++) {
    assert.equal(await postStatus(server.url, INITIALIZE_BODY, server.headers), 200);
  }
  // Two sessions, each with its two servers (and, on Linux, their watchdog); the evicted sessions' are gone.
  await waitFor(
    "the evicted sessions' processes to exit",
    async () => (await descendants(server.child.pid)).length <= 6,
    20_000,
  );
  assert.equal(server.stderr().match(/to make room for a new one/g)?.length, 3);
});
