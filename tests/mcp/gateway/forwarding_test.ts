import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { waitFor } from "../../_support/poll.ts";
import { Downstreams } from "../../../mcp/gateway/downstream.ts";
import { frontDownstreams } from "../../../mcp/gateway/boot.ts";
import { loadServerSdk, type McpServerHandle } from "../../../lib/mcp/server.ts";
import {
  type CallToolResult,
  type ClientCapabilities,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  type RequestId,
  ToolListChangedNotificationSchema,
} from "../../../lib/mcp/sdk.ts";
import { Client, InMemoryTransport } from "../../../lib/mcp/sdk_client.ts";
import type { ServerConfig } from "../../../mcp/gateway/types.ts";
import { builtinServer, scriptServer } from "./_config.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { pathToFileURL } from "node:url";
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
  // The gateway as boot() builds it: the servers connect at the client's initialize, which waits for them.
  await loadServerSdk();
  const handle = frontDownstreams(downstreams, {
    workspaceRoots: options.workspaceRoots ?? [],
    cleanup: () => downstreams.close(),
    waitMs: 60_000,
  });
  return await link(handle);
}

interface Seen {
  progress?: number;
  total?: number;
  message?: string;
}

Deno.test("forwarding: downstream progress reaches the upstream client in order, the latest before the result", async () => {
  await using upstream = await gateway([scriptServer("chatty", "chatty.ts")]);
  const seen: Seen[] = [];
  const result = await upstream.client.callTool(
    { name: "gateway_call", arguments: { name: "chatty__progress", arguments: { count: 20 } } },
    undefined,
    { onprogress: (update) => seen.push(update) },
  ) as CallToolResult;
  const beforeResult = seen.length;
  assert.equal(textOf(result), "done");
  // Coalesced per call (progress_coalescing.ts): some may be skipped, never reordered, never the last.
  assert.ok(
    seen.length >= 1 && seen.every((update, i) => i === 0 || update.progress! > seen[i - 1].progress!),
  );
  for (const update of seen) {
    assert.deepEqual(update, { progress: update.progress, total: 20, message: `step ${update.progress}` });
  }
  assert.deepEqual(seen.at(-1), { progress: 20, total: 20, message: "step 20" });
  assert.equal(beforeResult, seen.length, "the last notification arrived before the result");
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
  assert.equal(await changes(), "0");
  await upstream.client.sendRootsListChanged();
  await waitFor("the upstream change to reach the server", async () => await changes() === "1");
});

Deno.test("forwarding: when the upstream client's roots/list fails, a downstream one gets the gateway's workspace", async () => {
  const workspace = os === "windows" ? "C:\\work\\ws" : "/work/ws";
  await using upstream = await gatewayWith(
    [scriptServer("chatty", "chatty.ts")],
    { workspaceRoots: [workspace] },
    (handle) => upstreamClient(handle, { roots: { listChanged: true } }),
  );
  assert.equal(
    await upstream.call("chatty__roots"),
    os === "windows" ? "file:///C:/work/ws" : "file:///work/ws",
  );
});

/** A message the gateway sent its client, and the upstream request it was related to (transport-level). */
interface Sent {
  method: string;
  relatedRequestId?: RequestId;
}

/**
 * An upstream SDK client declaring `capabilities`, answering elicitation (accept, `sure: true`), sampling
 * ("hi from upstream") and roots/list (which fails) for those it declares. It records each tools/call id it
 * sends and every request and notification the gateway sends it, with the `relatedRequestId` the gateway
 * gave the transport: over Streamable HTTP that picks the call's stream.
 */
async function upstreamClient(handle: McpServerHandle, capabilities: ClientCapabilities) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sent: Sent[] = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, options) => {
    if ("method" in message) {
      sent.push({
        method: message.method,
        ...(options?.relatedRequestId === undefined ? {} : { relatedRequestId: options.relatedRequestId }),
      });
    }
    return send(message, options);
  };
  const callIds: RequestId[] = [];
  const sendUp = clientSide.send.bind(clientSide);
  clientSide.send = (message, options) => {
    if ("method" in message && message.method === "tools/call" && "id" in message) callIds.push(message.id);
    return sendUp(message, options);
  };
  const client = new Client({ name: "upstream", version: "0.0.0" }, { capabilities });
  const questions: string[] = [];
  if (capabilities.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      questions.push(request.params.message);
      return { action: "accept", content: { sure: true } };
    });
  }
  if (capabilities.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: "assistant",
      content: { type: "text", text: "hi from upstream" },
      model: "test-model",
    }));
  }
  if (capabilities.roots) {
    client.setRequestHandler(ListRootsRequestSchema, () => {
      throw new Error("roots are not ready");
    });
  }
  await handle.server.connect(serverSide);
  await client.connect(clientSide);
  const call = async (name: string, args: Record<string, unknown> = {}, onprogress?: () => void) =>
    textOf(
      await client.callTool(
        { name: "gateway_call", arguments: { name, arguments: args } },
        undefined,
        onprogress ? { onprogress } : {},
      ) as CallToolResult,
    );
  return {
    client,
    call,
    questions,
    sent,
    callIds,
    async [Symbol.asyncDispose]() {
      await client.close();
      await handle.close();
    },
  };
}

/** An upstream client that declares elicitation and sampling and answers both. */
const askingClient = (handle: McpServerHandle) => upstreamClient(handle, { elicitation: {}, sampling: {} });

Deno.test("forwarding: a downstream elicitation reaches an upstream client that supports it; its answer returns", async () => {
  await using upstream = await gatewayWith([scriptServer("chatty", "chatty.ts")], {}, askingClient);
  assert.deepEqual(JSON.parse(await upstream.call("chatty__ask")), {
    action: "accept",
    content: { sure: true },
  });
  assert.deepEqual(upstream.questions, ["Drop the table?"]);
});

Deno.test("forwarding: without upstream elicitation a server is not offered it; with a hook, what no rule answers is declined", async () => {
  await using upstream = await gateway([scriptServer("chatty", "chatty.ts")]);
  const plain = textOf(await upstream.call("gateway_call", { name: "chatty__ask" }));
  // The server's own SDK refuses, as it would connected straight to this client.
  assert.match(plain, /^error: .*does not support form elicitation/);
  const hooked = scriptServer("chatty", "chatty.ts", {
    elicitation: [{ match: /^Other$/, action: "accept" }],
  });
  await using declined = await gateway([hooked]);
  const answer = textOf(await declined.call("gateway_call", { name: "chatty__ask" }));
  assert.deepEqual(JSON.parse(answer), { action: "decline" });
});

Deno.test("forwarding: a downstream sampling request reaches an upstream client that supports it", async () => {
  await using upstream = await gatewayWith([scriptServer("chatty", "chatty.ts")], {}, askingClient);
  assert.equal(await upstream.call("chatty__sample"), "hi from upstream");
});

Deno.test("forwarding: without upstream sampling a server is not offered it, and a request it sends anyway fails", async () => {
  await using upstream = await gateway([scriptServer("chatty", "chatty.ts")]);
  assert.match(
    textOf(await upstream.call("gateway_call", { name: "chatty__sample" })),
    /^error: .*Method not found/,
  );
});

Deno.test("forwarding: each server is declared exactly the client capabilities the upstream client declared", async () => {
  const servers = () => [scriptServer("chatty", "chatty.ts")];
  const declaredTo = async (capabilities: ClientCapabilities) => {
    await using upstream = await gatewayWith(servers(), {}, (handle) => upstreamClient(handle, capabilities));
    return JSON.parse(await upstream.call("chatty__capabilities"));
  };
  // Roots are the exception: a rootless client's servers get the gateway's workspace (roots_test.ts).
  assert.deepEqual(await declaredTo({}), { roots: {} });
  assert.deepEqual(await declaredTo({ roots: { listChanged: true }, elicitation: {}, sampling: {} }), {
    roots: { listChanged: true },
    elicitation: { form: {} },
    sampling: {},
  });
  assert.deepEqual(await declaredTo({ elicitation: { url: {} }, sampling: { tools: {} } }), {
    roots: {},
    sampling: { tools: {} },
  });
});

Deno.test("forwarding: an in-process builtin gets the upstream client's roots only when it declared them", async () => {
  await using root = await tempWorkspace({ "upstream-marker.txt": "x" });
  const listing = async (options: { roots?: string[] }) => {
    await using upstream = await gateway([builtinServer("fs", "fs")], options);
    return textOf(await upstream.call("gateway_call", { name: "fs__fs_list", arguments: { path: "." } }));
  };
  assert.match(await listing({ roots: [pathToFileURL(root.path).href] }), /upstream-marker\.txt/);
  // A rootless client: the server gets the gateway's workspace (none here), so it keeps its own (the cwd).
  assert.doesNotMatch(await listing({}), /upstream-marker/);
});

Deno.test("forwarding: an upstream client declaring file:/// gets no file outside a project from a builtin", async () => {
  await using upstream = await gateway([builtinServer("fs", "fs")], {
    roots: [pathToFileURL(os === "windows" ? "C:\\" : "/").href],
  });
  const secret = os === "windows" ? "C:/Windows/win.ini" : "/etc/passwd";
  const result = await upstream.call("gateway_call", { name: "fs__fs_read", arguments: { path: secret } });
  assert.match(
    textOf(result),
    /\[permission_denied\]: Cannot use "[^"]+": the workspace root "(\/|C:\/)" is /,
  );
});

Deno.test("forwarding: questions, progress and logs go upstream related to the tools/call that caused them", async () => {
  await using upstream = await gatewayWith([scriptServer("chatty", "chatty.ts")], {}, askingClient);
  await upstream.call("chatty__ask");
  await upstream.call("chatty__sample");
  await upstream.call("chatty__progress", { count: 2 }, () => {});
  await upstream.call("chatty__log");
  const [ask, sample, progress, log] = upstream.callIds;
  const related = (method: string) =>
    upstream.sent.filter((sent) => sent.method === method).map((sent) => sent.relatedRequestId);
  assert.deepEqual(related("elicitation/create"), [ask]);
  assert.deepEqual(related("sampling/createMessage"), [sample]);
  assert.deepEqual([...new Set(related("notifications/progress"))], [progress], "coalesced, never unrelated");
  assert.deepEqual(related("notifications/message"), [log, log, log]);
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

Deno.test("forwarding: a downstream tools/list_changed re-indexes; upstream hears nothing, its four tools being unchanged", async () => {
  await using upstream = await gateway([scriptServer("fixture", "fixture.ts")]);
  let announced = 0;
  upstream.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void announced++);
  const search = () => upstream.text("gateway_search", { query: "extra" });
  assert.doesNotMatch(await search(), /fixture__extra/);
  await upstream.call("gateway_call", { name: "fixture__grow" });
  await waitFor("the re-indexed catalog", async () => (await search()).includes("fixture__extra"));
  assert.equal(textOf(await upstream.call("gateway_call", { name: "fixture__extra" })), "extra");
  const { tools } = await upstream.client.listTools();
  assert.equal(tools.length, 4);
  assert.ok(
    !upstream.client.getServerCapabilities()?.tools?.listChanged,
    "the gateway promises no list changes",
  );
  assert.equal(announced, 0);
});

Deno.test("forwarding: the servers connect at the client's initialize, whose answer's instructions name them", async () => {
  await using upstream = await gateway([
    builtinServer("hello", "hello"),
    scriptServer("chatty", "chatty.ts"),
  ]);
  const instructions = upstream.client.getInstructions() ?? "";
  assert.match(instructions, /- hello — \S/);
  assert.match(instructions, /- chatty\b/);
  assert.doesNotMatch(instructions, /No servers|\(down\)/);
});

Deno.test("forwarding: a server whose declared capabilities change gets a new connection; others keep theirs", async () => {
  await using downstreams = new Downstreams(
    [scriptServer("chatty", "chatty.ts"), scriptServer("other", "chatty.ts", { env: { WHO: "other" } })],
    { log: { info() {}, error() {} } },
  );
  await downstreams.start();
  const declared = async (server: string) =>
    JSON.parse(textOf(await downstreams.call(`${server}__capabilities`, {})));
  assert.deepEqual(await declared("chatty"), { roots: {} });
  const first = downstreams.pidOf("chatty");
  await downstreams.declare({ sampling: {} });
  assert.deepEqual(await declared("chatty"), { roots: {}, sampling: {} });
  const second = downstreams.pidOf("chatty");
  assert.notEqual(second, first);
  await downstreams.declare({ sampling: {} });
  assert.equal(downstreams.pidOf("chatty"), second, "the same declaration keeps the connection");
  const other = downstreams.pidOf("other");
  // A hook added by a reload: the gateway now answers that server's elicitations itself.
  downstreams.reconfigure([
    scriptServer("chatty", "chatty.ts", { elicitation: [{ match: /^Never$/, action: "decline" }] }),
    scriptServer("other", "chatty.ts", { env: { WHO: "other" } }),
  ]);
  await downstreams.settled();
  assert.deepEqual(await declared("chatty"), { roots: {}, elicitation: { form: {} }, sampling: {} });
  assert.equal(downstreams.pidOf("other"), other);
});

Deno.test("forwarding: a server that gives up on its question cancels the one asked upstream", async () => {
  await using upstream = await gatewayWith(
    [scriptServer("chatty", "chatty.ts")],
    {},
    (handle) => upstreamClient(handle, { elicitation: {} }),
  );
  // The SDK ignores a cancellation of request id 0 (`if (!requestId)`): the gateway's first question is answered.
  await upstream.call("chatty__ask");
  const cancelled = Promise.withResolvers<unknown>();
  // The user never answers; the request's signal tells of the cancellation.
  upstream.client.setRequestHandler(ElicitRequestSchema, (_, extra) =>
    new Promise((resolve) => {
      extra.signal.addEventListener("abort", () => {
        cancelled.resolve(extra.signal.reason);
        resolve({ action: "cancel" });
      });
    }));
  assert.match(await upstream.call("chatty__ask_briefly"), /^error: .*timed out/i);
  await cancelled.promise;
  assert.deepEqual(
    upstream.sent.filter((sent) => sent.method.startsWith("notifications/cancelled")),
    [{ method: "notifications/cancelled", relatedRequestId: upstream.callIds[1] }],
  );
});
