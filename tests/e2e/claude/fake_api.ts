/**
 * A scripted Anthropic Messages API on 127.0.0.1 (`Deno.serve`) standing in for the model under Claude Code
 * (ANTHROPIC_BASE_URL): it streams the `tool_use` a script decides as Claude Code expects (`message_start`,
 * `content_block_start`/`delta`/`stop`, `message_delta`, `message_stop`), checks that the next request
 * carries that call's `tool_result`, and records every request (with its `tools[]`).
 * @module
 */

/** One entry of a request's `tools[]` as Claude Code sends it. */
export interface WireTool {
  name: string;
  description?: string;
  "input_schema"?: unknown;
  "defer_loading"?: boolean;
}

/** A content block of a message (only the fields the fake reads). */
export interface Block {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  "tool_use_id"?: string;
  "tool_name"?: string;
  content?: string | Block[];
  "is_error"?: boolean;
}

/** The body of `POST /v1/messages`. */
export interface MessagesRequest {
  model: string;
  messages: { role: string; content: string | Block[] }[];
  tools?: WireTool[];
  stream?: boolean;
}

/** What the fake model says next: one tool call, or a final text. */
export type Reply = { call: string; input: Record<string, unknown> } | { text: string };

/** A call the model made and what came back as its `tool_result`. */
export interface Exchange {
  name: string;
  input: Record<string, unknown>;
  /** The result's text; a `tool_reference` block reads as `tool_reference:<name>`. */
  result: string;
  isError: boolean;
}

/** Decides the next reply from the exchanges so far and the request being answered. */
export type Script = (exchanges: readonly Exchange[], request: MessagesRequest) => Reply;

/** A running fake API. */
export interface FakeApi extends AsyncDisposable {
  /** For ANTHROPIC_BASE_URL. */
  baseUrl: string;
  port: number;
  requests: MessagesRequest[];
  exchanges: Exchange[];
  /** Every tool call the model made; each must come back as an exchange. */
  calls: { id: string; name: string; input: Record<string, unknown> }[];
  /** Protocol breaches seen (a result missing from the next request, an unknown endpoint, a loop). */
  problems: string[];
}

const MAX_CALLS = 12;

/** Starts the fake API; `script` decides each reply. */
export function startFakeApi(script: Script): FakeApi {
  const requests: MessagesRequest[] = [];
  const exchanges: Exchange[] = [];
  const problems: string[] = [];
  const calls: FakeApi["calls"] = [];

  const decide = (request: MessagesRequest): Reply => {
    const pending = calls[exchanges.length];
    if (pending) {
      const result = toolResult(request, pending.id);
      if (!result) {
        problems.push(`request ${requests.length} lacks the tool_result of ${pending.id} (${pending.name})`);
        return { text: "E2E-PROTOCOL-PROBLEM" };
      }
      exchanges.push({ name: pending.name, input: pending.input, ...result });
    }
    if (calls.length >= MAX_CALLS) {
      problems.push(`more than ${MAX_CALLS} tool calls`);
      return { text: "E2E-TOO-MANY-CALLS" };
    }
    const reply = script(exchanges, request);
    if ("call" in reply) {
      calls.push({ id: `toolu_e2e_${calls.length + 1}`, name: reply.call, input: reply.input });
    }
    return reply;
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const { pathname } = new URL(req.url);
    if (req.method === "POST" && pathname === "/v1/messages/count_tokens") {
      return Response.json({ input_tokens: 1 });
    }
    if (req.method !== "POST" || pathname !== "/v1/messages") {
      problems.push(`unexpected request ${req.method} ${pathname}`);
      return Response.json({ type: "error", error: { type: "not_found_error", message: "e2e" } }, {
        status: 404,
      });
    }
    const request: MessagesRequest = await req.json();
    requests.push(request);
    let reply: Reply;
    try {
      reply = decide(request);
    } catch (error) {
      problems.push(`script failed: ${error instanceof Error ? error.message : String(error)}`);
      reply = { text: "E2E-SCRIPT-FAILED" };
    }
    const id = "call" in reply ? calls[calls.length - 1].id : undefined;
    const message = { model: request.model, reply, id };
    return request.stream ? sse(events(message)) : Response.json(whole(message));
  });

  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}`,
    port: server.addr.port,
    requests,
    exchanges,
    calls,
    problems,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** The `tool_result` block answering `id` in the request's last user message, as text. */
function toolResult(request: MessagesRequest, id: string): { result: string; isError: boolean } | undefined {
  const last = request.messages.findLast((message) => message.role === "user");
  const blocks = Array.isArray(last?.content) ? last.content : [];
  const block = blocks.find((b) => b.type === "tool_result" && b.tool_use_id === id);
  if (!block) return undefined;
  return { result: blockText(block.content), isError: block.is_error === true };
}

function blockText(content: string | Block[] | undefined): string {
  if (typeof content === "string") return content;
  return (content ?? [])
    .map((block) => block.type === "tool_reference" ? `tool_reference:${block.tool_name}` : block.text ?? "")
    .join("\n");
}

interface Answer {
  model: string;
  reply: Reply;
  id: string | undefined;
}

const usage = { "input_tokens": 1, "output_tokens": 1 };

function head(answer: Answer) {
  return {
    id: `msg_e2e_${crypto.randomUUID().slice(0, 8)}`,
    type: "message",
    role: "assistant",
    model: answer.model,
    stop_sequence: null,
    usage,
  };
}

const stopReason = (reply: Reply) => "call" in reply ? "tool_use" : "end_turn";

/** The SSE events of a streamed answer; a call's input arrives as `input_json_delta`, as real models send. */
function events(answer: Answer): [string, unknown][] {
  const { reply } = answer;
  const block = "call" in reply
    ? { type: "tool_use", id: answer.id, name: reply.call, input: {} }
    : { type: "text", text: "" };
  const delta = "call" in reply
    ? { type: "input_json_delta", partial_json: JSON.stringify(reply.input) }
    : { type: "text_delta", text: reply.text };
  return [
    ["message_start", {
      type: "message_start",
      message: { ...head(answer), content: [], stop_reason: null },
    }],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: block }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", {
      type: "message_delta",
      delta: { stop_reason: stopReason(reply), stop_sequence: null },
      usage: { output_tokens: 1 },
    }],
    ["message_stop", { type: "message_stop" }],
  ];
}

/** The same answer unstreamed. */
function whole(answer: Answer): unknown {
  const { reply } = answer;
  const content = "call" in reply
    ? [{ type: "tool_use", id: answer.id, name: reply.call, input: reply.input }]
    : [{ type: "text", text: reply.text }];
  return { ...head(answer), content, stop_reason: stopReason(reply) };
}

function sse(list: [string, unknown][]): Response {
  const body = list.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join("");
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}
