import assert from "node:assert/strict";
import { ListRootsRequestSchema } from "../../../lib/mcp/sdk.ts";
import { Client, StreamableHTTPClientTransport } from "../../../lib/mcp/sdk_client.ts";
import { pathToFileURL } from "node:url";
import { serveHttp } from "../../../lib/mcp/http.ts";
import { createServer } from "../../../mcp/hello/server.ts";
import { createTools } from "../../../mcp/hello/tools.ts";
import { createMcpServer } from "../../../lib/mcp/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { connectHttpClient, INITIALIZE_BODY, spawnHttp } from "../../_support/http.ts";
import { waitFor } from "../../_support/poll.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

/** A POST written by hand: fetch() will not send a Host header of our choosing. */
async function rawPost(
  url: string,
  headers: Record<string, string>,
  body = INITIALIZE_BODY,
): Promise<number> {
  const { hostname, port, pathname } = new URL(url);
  const connection = await Deno.connect({ hostname, port: Number(port) });
  const lines = [
    `POST ${pathname} HTTP/1.1`,
    ...Object.entries({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "content-length": String(new TextEncoder().encode(body).length),
      connection: "close",
      ...headers,
    }).map(([name, value]) => `${name}: ${value}`),
  ];
  await connection.write(new TextEncoder().encode(`${lines.join("\r\n")}\r\n\r\n${body}`));
  let reply = "";
  for await (const chunk of connection.readable.pipeThrough(new TextDecoderStream())) {
    reply += chunk;
    if (reply.includes("\r\n")) break;
  }
  try {
    connection.close();
  } catch {
    // The server closed it first.
  }
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1]);
}

Deno.test("http: a spawned server answers initialize, tools/list and tools/call over Streamable HTTP", async () => {
  await using server = await spawnHttp("hello");
  const { client, transport } = await connectHttpClient(server.url, server.headers);
  assert.match(transport.sessionId ?? "", /^[0-9a-f-]{36}$/);
  assert.equal(client.getServerVersion()?.name, "hello-mcp");
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), ["hello_ping", "hello_echo", "hello_whoami"]);
  const result = await client.callTool({ name: "hello_echo", arguments: { text: "over http" } });
  assert.deepEqual(result.content, [{ type: "text", text: "over http" }]);
  assert.deepEqual(await client.setLoggingLevel("warning"), {});
  await client.close();
});

Deno.test("http: a foreign Host or Origin is refused with 403 (DNS rebinding), loopback names pass", async () => {
  await using server = await spawnHttp("hello");
  const { host, port } = new URL(server.url);
  // With the right token: the Host and Origin checks hold on their own.
  const post = (headers: Record<string, string>) => rawPost(server.url, { ...server.headers, ...headers });
  assert.equal(await post({ host: "evil.example.com", origin: "http://evil.example.com" }), 403);
  assert.equal(await post({ host: `evil.example.com:${port}` }), 403);
  assert.equal(await post({ host, origin: "http://evil.example.com" }), 403);
  assert.equal(await post({ host: "localhost:1" }), 403);
  assert.equal(await post({ host: `localhost:${port}`, origin: "http://localhost:6274" }), 200);
  assert.equal(await post({ host }), 200);
  assert.match(
    server.stderr(),
    /refused POST \(403\): Host "evil\.example\.com" is not this loopback server/,
  );
});

Deno.test("http: with MCP_HTTP_TOKEN set, a request without the bearer token gets 401", async () => {
  await using server = await spawnHttp("hello", { env: { MCP_HTTP_TOKEN: "s3cret-token" } });
  const { host } = new URL(server.url);
  assert.equal(await rawPost(server.url, { host }), 401);
  assert.equal(await rawPost(server.url, { host, authorization: "Bearer wrong-token" }), 401);
  await assert.rejects(connectHttpClient(server.url), /Missing or wrong bearer token/);
  const { client } = await connectHttpClient(server.url, { authorization: "Bearer s3cret-token" });
  assert.equal((await client.listTools()).tools.length, 3);
  await client.close();
});

/** Boots a hello server per session whose cleanup counts itself in `cleanups.closed`. */
function helloCountingCleanups(cleanups: { closed: number }) {
  return () =>
    createMcpServer({
      name: "hello",
      instructions: "Counts its cleanups.",
      tools: createTools({ workspace: Workspace.fromEnv() }),
      cleanup: () => void cleanups.closed++,
    });
}

Deno.test("http: each session has its own server; DELETE ends it and runs its cleanup, its id then gets 404", async () => {
  const cleanups = { closed: 0 };
  const server = await serveHttp(helloCountingCleanups(cleanups), {
    listen: { hostname: "127.0.0.1", port: 0 },
  });
  try {
    const first = await connectHttpClient(server.url);
    const second = await connectHttpClient(server.url);
    assert.notEqual(first.transport.sessionId, second.transport.sessionId);
    assert.equal(server.sessionCount(), 2);
    const sessionId = first.transport.sessionId!;
    await first.transport.terminateSession();
    await waitFor("the session's cleanup", () => cleanups.closed === 1);
    assert.equal(server.sessionCount(), 1);
    const stale = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    assert.equal(stale.status, 404);
    assert.equal((await stale.json()).error.code, -32001);
    assert.equal((await second.client.listTools()).tools.length, 3);
    await first.client.close();
    await second.client.close();
  } finally {
    await server.close();
  }
  assert.equal(cleanups.closed, 2);
});

Deno.test("http: stateless mode serves each POST with a fresh server and no session id", async () => {
  let booted = 0;
  const server = await serveHttp(() => {
    booted++;
    return createServer({ workspace: Workspace.fromEnv() });
  }, { listen: { hostname: "127.0.0.1", port: 0 }, stateless: true });
  try {
    const { client, transport } = await connectHttpClient(server.url);
    assert.equal(transport.sessionId, undefined);
    const result = await client.callTool({ name: "hello_echo", arguments: { text: "again" } });
    assert.deepEqual(result.content, [{ type: "text", text: "again" }]);
    // One per POST holding a request (initialize, tools/call); the initialized notification needs none.
    assert.equal(booted, 2);
    assert.equal(server.sessionCount(), 0);
    const get = await fetch(server.url, { headers: { accept: "text/event-stream" } });
    assert.equal(get.status, 405);
    await get.body?.cancel();
    await client.close();
  } finally {
    await server.close();
  }
});

Deno.test("http: only /mcp is served", async () => {
  const server = await serveHttp(() => createServer({ workspace: Workspace.fromEnv() }), {
    listen: { hostname: "127.0.0.1", port: 0 },
  });
  try {
    const response = await fetch(server.url.replace(/\/mcp$/, "/"));
    assert.equal(response.status, 404);
    await response.body?.cancel();
  } finally {
    await server.close();
  }
});

Deno.test("http: a long tool's progress reaches the client on the request's SSE stream", async () => {
  await using workspace = await tempWorkspace();
  await using server = await spawnHttp("shell", {
    cwd: workspace.path,
    env: { MCP_WORKSPACE: workspace.path },
  });
  const { client } = await connectHttpClient(server.url, server.headers);
  const messages: string[] = [];
  // The command waits for a file the test writes once the first progress arrived: no guessed delay.
  const result = await client.callTool(
    {
      name: "shell_run",
      arguments: { command: "echo first; while [ ! -f go ]; do sleep 0.05; done; echo last", wait_s: 30 },
    },
    undefined,
    {
      onprogress: (progress) => {
        messages.push(progress.message ?? "");
        if (messages.length === 1) Deno.writeTextFileSync(workspace.join("go"), "");
      },
    },
  );
  assert.equal(messages[0], "first");
  assert.match(JSON.stringify(result.content), /first\\nlast/);
  await client.close();
});

Deno.test("http: a session whose client vanished without DELETE is closed once idle, running its cleanup", async () => {
  const cleanups = { closed: 0 };
  const server = await serveHttp(helloCountingCleanups(cleanups), {
    listen: { hostname: "127.0.0.1", port: 0 },
    sessionIdleMs: 100,
  });
  try {
    const { client } = await connectHttpClient(server.url);
    assert.equal((await client.listTools()).tools.length, 3);
    await client.close(); // drops its streams, sends no DELETE
    await waitFor("the idle session's cleanup", () => cleanups.closed === 1);
    assert.equal(server.sessionCount(), 0);
  } finally {
    await server.close();
  }
});

Deno.test("http: a client offering roots gets them adopted within the first call, not lost before its GET stream", async () => {
  await using workspace = await tempWorkspace();
  const server = await serveHttp(() => createServer({ workspace: new Workspace({ cwd: Deno.cwd() }) }), {
    listen: { hostname: "127.0.0.1", port: 0 },
  });
  try {
    const client = new Client({ name: "roots-test", version: "0.0.0" }, { capabilities: { roots: {} } });
    client.setRequestHandler(
      ListRootsRequestSchema,
      () => ({ roots: [{ uri: pathToFileURL(workspace.path).href }] }),
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const result = await client.callTool({ name: "hello_whoami", arguments: {} }, undefined, {
      timeout: 10_000,
    });
    const text = (result.content as { text: string }[])[0].text;
    assert.deepEqual(JSON.parse(text).roots, [workspace.path]);
    await client.close();
  } finally {
    await server.close();
  }
});

Deno.test("http: a request to the client right after initialize waits for its GET stream instead of being lost", async () => {
  const answers: unknown[] = [];
  const server = await serveHttp(() => {
    const handle = createServer({ workspace: Workspace.fromEnv() });
    // The gateway does this: it tells its downstream servers at once, and they ask for the roots.
    handle.server.oninitialized = () => {
      handle.server.listRoots(undefined, { timeout: 10_000 }).then((result) => answers.push(result.roots));
    };
    return handle;
  }, { listen: { hostname: "127.0.0.1", port: 0 } });
  try {
    const client = new Client({ name: "roots-test", version: "0.0.0" }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: "file:///srv/project" }] }));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    await waitFor("the roots answer", () => answers.length === 1);
    assert.deepEqual(answers, [[{ uri: "file:///srv/project" }]]);
    await client.close();
  } finally {
    await server.close();
  }
});
