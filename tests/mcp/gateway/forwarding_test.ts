import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { waitFor } from "../../_support/poll.ts";
import { Downstreams } from "../../../mcp/gateway/downstream.ts";
import { createFinder } from "../../../mcp/gateway/finder.ts";
import { createServer } from "../../../mcp/gateway/server.ts";
import { relayUpstream } from "../../../mcp/gateway/relay.ts";
import { loadServerSdk, type McpServerHandle } from "../../../lib/mcp/server.ts";
import {
  type CallToolResult,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
} from "../../../lib/mcp/sdk.ts";
import { Client, InMemoryTransport } from "../../../lib/mcp/sdk_client.ts";
import type { ServerConfig } from "../../../mcp/gateway/types.ts";
import { scriptServer } from "./_config.ts";
import { os } from "../../../lib/platform/mod.ts";

/** The gateway over real downstream servers, with a real SDK client upstream. */
function gateway(
  configs: ServerConfig[],
  options: { callCeilingMs?: number; workspaceRoots?: string[]; roots?: string[] } = {},
) {
  return gatewayWith(
    configs,
    options,
    (handle) => connect(handle, options.roots ? { roots: options.roots } : {}),
  );
}

async function gatewayWith<T>(
  configs: ServerConfig[],
  options: { callCeilingMs?: number; workspaceRoots?: string[] },
  link: (handle: McpServerHandle) => Promise<T>,
): Promise<T> {
  const downstreams = new Downstreams(configs, {
    log: { info() {}, error() {} },
    callCeilingMs: options.callCeilingMs,
  });
  await downstreams.start();
  const handle = createServer({
    backend: {
      catalog: () => downstreams.catalog(),
      status: () => downstreams.status(),
      call: (name, args, options) => downstreams.call(name, args, options),
    },
    finder: createFinder(),
    cleanup: () => downstreams.close(),
  });
  await loadServerSdk();
  relayUpstream(downstreams, handle, options.workspaceRoots ?? []);
  return link(handle);
}

interface Seen {
  progress?: number;
  total?: number;
  message?: string;
}

Deno.test("forwarding: downstream progress reaches the upstream client, all of it, in order, before the result", async () => {
  await using upstream = await gateway([scriptServer("chatty", "chatty.ts")]);
  const seen: Seen[] = [];
  const result = await upstream.client.callTool(
    { name: "gateway_call", arguments: { name: "chatty__progress", arguments: { count: 20 } } },
    undefined,
    { onprogress: (update) => seen.push(update) },
  ) as CallToolResult;
  const beforeResult = seen.length;
  assert.equal(textOf(result), "done");
  assert.deepEqual(
    seen,
    Array.from({ length: 20 }, (_, i) => ({ progress: i + 1, total: 20, message: `step ${i + 1}` })),
  );
  assert.equal(beforeResult, 20, "every progress notification arrived before the result");
});

Deno.test("forwarding: without a progress token upstream the call still succeeds", async () => {
  await using upstream = await gateway([scriptServer("chatty", "chatty.ts")]);
  const result = await upstream.call("gateway_call", { name: "chatty__progress", arguments: { count: 3 } });
  assert.equal(textOf(result), "done");
});

Deno.test("forwarding: progress keeps a call alive past its timeout; the hard ceiling still ends it", async () => {
  await using upstream = await gateway(
    [scriptServer("chatty", "chatty.ts", { callTimeoutMs: 400 })],
    { callCeilingMs: 2_500 },
  );
  const call = (count: number) =>
    upstream.client.callTool(
      { name: "gateway_call", arguments: { name: "chatty__progress", arguments: { count, every_ms: 100 } } },
      undefined,
      { onprogress: () => {}, timeout: 60_000 },
    ) as Promise<CallToolResult>;
  // 10 steps of 100 ms: well past the 400 ms limit, but never 400 ms without progress.
  const alive = await call(10);
  assert.equal(textOf(alive), "done");
  const capped = await call(1_000);
  assert.equal(capped.isError, true);
  assert.match(textOf(capped), /^Error \[timeout\].*"progress".*2500ms ceiling/s);
  await waitFor(
    "the cancellation to reach the server",
    async () =>
      textOf(await upstream.call("gateway_call", { name: "chatty__cancellations" })) ===
        "2 started, 1 cancelled",
  );
});

Deno.test("forwarding: without progress the call's timeout holds", async () => {
  await using upstream = await gateway([scriptServer("chatty", "chatty.ts", { callTimeoutMs: 300 })]);
  const result = await upstream.call("gateway_call", {
    name: "chatty__progress",
    arguments: { count: 3, every_ms: 1_000 },
  });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /^Error \[timeout\].*300ms/s);
});

Deno.test("forwarding: an upstream abort of gateway_call sends notifications/cancelled downstream", async () => {
  await using upstream = await gateway([scriptServer("chatty", "chatty.ts")]);
  const count = async () => textOf(await upstream.call("gateway_call", { name: "chatty__cancellations" }));
  const controller = new AbortController();
  const call = upstream.client.callTool(
    {
      name: "gateway_call",
      arguments: { name: "chatty__progress", arguments: { count: 10_000, every_ms: 50 } },
    },
    undefined,
    { signal: controller.signal },
  );
  await waitFor("the downstream call to start", async () => await count() === "1 started, 0 cancelled");
  controller.abort(new Error("user pressed stop"));
  await assert.rejects(call, /user pressed stop/);
  await waitFor(
    "the cancellation to reach the server",
    async () => await count() === "1 started, 1 cancelled",
  );
});

Deno.test("forwarding: downstream log messages reach the upstream client, the logger prefixed by the server", async () => {
  await using upstream = await gateway([scriptServer("chatty", "chatty.ts")]);
  assert.deepEqual(upstream.client.getServerCapabilities()?.logging, {});
  const seen: LoggingMessageNotification["params"][] = [];
  upstream.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.push(n.params));
  assert.equal(textOf(await upstream.call("gateway_call", { name: "chatty__log" })), "logged");
  await waitFor("three log messages", () => seen.length === 3);
  assert.deepEqual(seen, [
    { level: "info", logger: "chatty/db", data: "connected" },
    { level: "debug", logger: "chatty", data: "details" },
    { level: "error", logger: "chatty/db", data: { code: 7 } },
  ]);
});

Deno.test("forwarding: the upstream client's logging/setLevel filters relayed log messages", async () => {
  await using upstream = await gateway([scriptServer("chatty", "chatty.ts")]);
  await upstream.client.setLoggingLevel("error");
  const seen: string[] = [];
  upstream.client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n) => void seen.push(n.params.level),
  );
  await upstream.call("gateway_call", { name: "chatty__log" });
  // The error is sent last: once it is here, the others would have been too.
  await waitFor("the error message", () => seen.includes("error"));
  assert.deepEqual(seen, ["error"]);
});

Deno.test("forwarding: a downstream roots/list gets the upstream client's roots; list_changed propagates", async () => {
  const roots = ["file:///work/one", "file:///work/two"];
  await using upstream = await gateway([scriptServer("chatty", "chatty.ts")], {
    roots,
    workspaceRoots: ["/elsewhere"],
  });
  const changes = async () => textOf(await upstream.call("gateway_call", { name: "chatty__roots_changes" }));
  assert.equal(textOf(await upstream.call("gateway_call", { name: "chatty__roots" })), roots.join("\n"));
  // The client's roots replace the workspace at initialize: downstream servers hear of it once.
  await waitFor("the change at initialize", async () => await changes() === "1");
  await upstream.client.sendRootsListChanged();
  await waitFor("the upstream change to reach the server", async () => await changes() === "2");
});

Deno.test("forwarding: without upstream roots a downstream roots/list gets the gateway's workspace", async () => {
  const workspace = os === "windows" ? "C:\\work\\ws" : "/work/ws";
  await using upstream = await gateway([scriptServer("chatty", "chatty.ts")], {
    workspaceRoots: [workspace],
  });
  assert.equal(
    textOf(await upstream.call("gateway_call", { name: "chatty__roots" })),
    os === "windows" ? "file:///C:/work/ws" : "file:///work/ws",
  );
  assert.equal(textOf(await upstream.call("gateway_call", { name: "chatty__roots_changes" })), "0");
});

/** An upstream client that declares elicitation and sampling and answers both. */
async function askingClient(handle: McpServerHandle) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "asking", version: "0.0.0" }, {
    capabilities: { elicitation: {}, sampling: {} },
  });
  const questions: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    questions.push(request.params.message);
    return { action: "accept", content: { sure: true } };
  });
  client.setRequestHandler(CreateMessageRequestSchema, () => ({
    role: "assistant",
    content: { type: "text", text: "hi from upstream" },
    model: "test-model",
  }));
  await loadServerSdk();
  await handle.server.connect(serverSide);
  await client.connect(clientSide);
  const call = async (name: string) =>
    textOf(await client.callTool({ name: "gateway_call", arguments: { name } }) as CallToolResult);
  return {
    call,
    questions,
    async [Symbol.asyncDispose]() {
      await client.close();
      await handle.close();
    },
  };
}

Deno.test("forwarding: a downstream elicitation reaches an upstream client that supports it; its answer returns", async () => {
  await using upstream = await gatewayWith([scriptServer("chatty", "chatty.ts")], {}, askingClient);
  assert.deepEqual(JSON.parse(await upstream.call("chatty__ask")), {
    action: "accept",
    content: { sure: true },
  });
  assert.deepEqual(upstream.questions, ["Drop the table?"]);
});

Deno.test("forwarding: a downstream elicitation is declined when the upstream client lacks elicitation", async () => {
  await using upstream = await gateway([scriptServer("chatty", "chatty.ts")]);
  const answer = textOf(await upstream.call("gateway_call", { name: "chatty__ask" }));
  assert.deepEqual(JSON.parse(answer), { action: "decline" });
});

Deno.test("forwarding: a downstream sampling request reaches an upstream client that supports it", async () => {
  await using upstream = await gatewayWith([scriptServer("chatty", "chatty.ts")], {}, askingClient);
  assert.equal(await upstream.call("chatty__sample"), "hi from upstream");
});

Deno.test("forwarding: a downstream sampling request is refused with the reason when the upstream client lacks sampling", async () => {
  await using upstream = await gateway([scriptServer("chatty", "chatty.ts")]);
  assert.match(
    textOf(await upstream.call("gateway_call", { name: "chatty__sample" })),
    /^error: .*Cannot sample for MCP server "chatty": the gateway's client does not support sampling/,
  );
});

Deno.test("forwarding: an elicitation hook answers before the client is asked; no match asks the client", async () => {
  const hooked = scriptServer("chatty", "chatty.ts", {
    elicitation: [{ match: /^(?:Drop the .*)$/s, action: "accept", content: { sure: false } }],
  });
  await using upstream = await gatewayWith([hooked], {}, askingClient);
  assert.deepEqual(JSON.parse(await upstream.call("chatty__ask")), {
    action: "accept",
    content: { sure: false },
  });
  assert.deepEqual(upstream.questions, [], "the client was not asked");
  const unmatched = scriptServer("chatty", "chatty.ts", {
    elicitation: [{ match: /^Other$/, action: "decline" }],
  });
  await using asked = await gatewayWith([unmatched], {}, askingClient);
  assert.deepEqual(JSON.parse(await asked.call("chatty__ask")), {
    action: "accept",
    content: { sure: true },
  });
  assert.deepEqual(asked.questions, ["Drop the table?"]);
});

Deno.test("forwarding: elicitations from two servers reach the client one at a time, in order", async () => {
  // Different env: two processes, not one shared connection.
  const servers = [scriptServer("a", "chatty.ts"), scriptServer("b", "chatty.ts", { env: { WHO: "b" } })];
  let release!: () => void;
  const firstHeld = new Promise<void>((resolve) => release = resolve);
  let inFlight = 0;
  let most = 0;
  const order: string[] = [];
  await using upstream = await gatewayWith(servers, {}, async (handle) => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "asking", version: "0.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => {
      most = Math.max(most, ++inFlight);
      order.push(`question ${order.length + 1}`);
      if (order.length === 1) await firstHeld;
      inFlight--;
      return { action: "accept", content: { sure: order.length === 1 } };
    });
    await loadServerSdk();
    await handle.server.connect(serverSide);
    await client.connect(clientSide);
    const call = async (name: string) =>
      textOf(await client.callTool({ name: "gateway_call", arguments: { name } }) as CallToolResult);
    return {
      call,
      async [Symbol.asyncDispose]() {
        await client.close();
        await handle.close();
      },
    };
  });
  const first = upstream.call("a__ask");
  first.catch(() => {}); // awaited below; a failed assertion before that must not leave it unhandled
  await waitFor("a's question to be asked", () => order.length === 1);
  const second = upstream.call("b__ask");
  second.catch(() => {});
  // b writes its elicitation before the answer to this call, on the same pipe: the gateway has it by then.
  await waitFor("b to ask", async () => await upstream.call("b__asked") === "1");
  assert.deepEqual(order, ["question 1"], "b's question waits for a's answer");
  release();
  assert.equal(JSON.parse(await first).action, "accept");
  assert.equal(JSON.parse(await second).action, "accept");
  assert.deepEqual(order, ["question 1", "question 2"]);
  assert.equal(most, 1);
});
