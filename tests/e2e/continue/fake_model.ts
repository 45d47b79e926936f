/**
 * A scripted OpenAI-compatible chat-completions server on 127.0.0.1 (`Deno.serve`) standing in for the
 * model: it answers with the tool calls a script decides, checks that each following request carries the
 * call's result as a `role: "tool"` message, and records every request (with its `tools[]`).
 * @module
 */

/** A chat message as cn sends it. */
export interface ChatMessage {
  role: string;
  content?: unknown;
  "tool_calls"?: { id: string; type: string; function: { name: string; arguments: string } }[];
  "tool_call_id"?: string;
}

/** One entry of the request's `tools[]`. */
export interface WireTool {
  type: string;
  function: { name: string; description?: string; parameters?: unknown };
}

/** The request body of `POST /v1/chat/completions`. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: WireTool[];
  stream?: boolean;
}

/** What the fake model says next: one tool call, or a final text. */
export type Reply = { call: string; arguments: Record<string, unknown> } | { text: string };

/** A call the model made and the text cn sent back as its result. */
export interface Exchange {
  name: string;
  arguments: Record<string, unknown>;
  result: string;
}

/** Decides the next reply from the exchanges so far. */
export type Script = (exchanges: readonly Exchange[]) => Reply;

/** A running fake model. */
export interface FakeModel extends AsyncDisposable {
  /** For cn's `apiBase`. */
  apiBase: string;
  requests: ChatRequest[];
  exchanges: Exchange[];
  /** Every tool call the model made; each must come back as an exchange. */
  calls: { id: string; name: string; arguments: Record<string, unknown> }[];
  /** Protocol breaches seen (a result missing from the next request, a runaway loop). */
  problems: string[];
}

const MAX_CALLS = 12;

/** Starts the fake model; `script` decides each reply. */
export function startFakeModel(script: Script): FakeModel {
  const requests: ChatRequest[] = [];
  const exchanges: Exchange[] = [];
  const problems: string[] = [];
  const calls: { id: string; name: string; arguments: Record<string, unknown> }[] = [];

  const decide = (request: ChatRequest): Reply => {
    const pending = calls[exchanges.length];
    if (pending) {
      const answer = request.messages.find((m) => m.role === "tool" && m.tool_call_id === pending.id);
      if (!answer) {
        problems.push(
          `request ${requests.length} lacks a role "tool" message for ${pending.id} (${pending.name})`,
        );
        return { text: "E2E-PROTOCOL-PROBLEM" };
      }
      exchanges.push({
        name: pending.name,
        arguments: pending.arguments,
        result: contentText(answer.content),
      });
    }
    if (calls.length >= MAX_CALLS) {
      problems.push(`more than ${MAX_CALLS} tool calls`);
      return { text: "E2E-TOO-MANY-CALLS" };
    }
    const reply = script(exchanges);
    if ("call" in reply) {
      calls.push({ id: `call_${calls.length + 1}`, name: reply.call, arguments: reply.arguments });
    }
    return reply;
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    if (req.method !== "POST" || !new URL(req.url).pathname.endsWith("/chat/completions")) {
      problems.push(`unexpected request ${req.method} ${new URL(req.url).pathname}`);
      return new Response("not found", { status: 404 });
    }
    const request: ChatRequest = await req.json();
    requests.push(request);
    let reply: Reply;
    try {
      reply = decide(request);
    } catch (error) {
      problems.push(`script failed: ${error instanceof Error ? error.message : String(error)}`);
      reply = { text: "E2E-SCRIPT-FAILED" };
    }
    const id = reply && "call" in reply ? calls[calls.length - 1].id : undefined;
    return request.stream === false ? Response.json(completion(reply, id)) : sse(chunks(reply, id));
  });

  return {
    apiBase: `http://127.0.0.1:${server.addr.port}/v1/`,
    requests,
    exchanges,
    calls,
    problems,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** The text of a tool message: cn sends the MCP content array as a JSON string. */
export function contentText(content: unknown): string {
  let value = content;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return value as string;
    }
  }
  if (Array.isArray(value)) return value.map((part) => part?.text ?? "").join("\n");
  return typeof value === "string" ? value : JSON.stringify(value);
}

function chunks(reply: Reply, id: string | undefined): unknown[] {
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id: "chatcmpl-e2e",
    object: "chat.completion.chunk",
    created: 0,
    model: "gpt-4o",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  if ("text" in reply) return [chunk({ role: "assistant", content: reply.text }), chunk({}, "stop")];
  return [
    chunk({
      role: "assistant",
      content: null,
      tool_calls: [{ index: 0, id, type: "function", function: { name: reply.call, arguments: "" } }],
    }),
    // Arguments arrive in a later chunk, as real models stream them.
    chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(reply.arguments) } }] }),
    chunk({}, "tool_calls"),
  ];
}

function completion(reply: Reply, id: string | undefined): unknown {
  const message = "text" in reply ? { role: "assistant", content: reply.text } : {
    role: "assistant",
    content: null,
    tool_calls: [{
      id,
      type: "function",
      function: { name: reply.call, arguments: JSON.stringify(reply.arguments) },
    }],
  };
  return {
    id: "chatcmpl-e2e",
    object: "chat.completion",
    created: 0,
    model: "gpt-4o",
    choices: [{ index: 0, message, finish_reason: "text" in reply ? "stop" : "tool_calls" }],
  };
}

function sse(events: unknown[]): Response {
  const lines = [...events.map((event) => `data: ${JSON.stringify(event)}\n\n`), "data: [DONE]\n\n"];
  return new Response(lines.join(""), {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}
