/**
 * A POST body, read before any server instance is involved: whole, within a size cap and a deadline, then
 * parsed and sorted as JSON-RPC. A request no server could answer is refused here, without booting one;
 * the transport then gets the parsed body (`parsedBody`) and does its own full validation.
 * @module
 */
import { jsonRpcError } from "./http_response.ts";

/** What the body holds, for deciding before a server instance exists. */
export interface JsonRpcBody {
  /** As parsed: one message or a batch. */
  parsed: unknown;
  /** One well-formed initialize request, alone: the only thing that may open a session. */
  initialize: boolean;
  /** At least one request (it has an id): an answer is owed, so a server instance is needed. */
  hasRequest: boolean;
  /** Only initialize and notifications/initialized: the client has not used its session yet. */
  handshakeOnly: boolean;
}

/** How to read. */
export interface BodyLimits {
  maxBytes: number;
  /** 0 waits as long as the body takes. */
  timeoutMs: number;
  /** Called when the deadline passes, before the 408 is returned (drops the connection). */
  onTimeout?: () => void;
}

/** Reads and sorts the body, or returns the error response: 413 too large, 408 too slow, 400 not JSON-RPC. */
export async function readJsonRpc(request: Request, limits: BodyLimits): Promise<JsonRpcBody | Response> {
  const text = await readText(request, limits);
  if (text instanceof Response) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return jsonRpcError(400, "Parse error: Invalid JSON", false, -32700);
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  if (messages.length === 0 || !messages.every(isMessage)) {
    return jsonRpcError(400, "Parse error: Invalid JSON-RPC message", false, -32700);
  }
  return {
    parsed,
    initialize: messages.length === 1 && isInitialize(messages[0]),
    hasRequest: messages.some((message) => "method" in message && "id" in message),
    handshakeOnly: messages.every((message) =>
      message.method === "initialize" || message.method === "notifications/initialized"
    ),
  };
}

async function readText(request: Request, limits: BodyLimits): Promise<string | Response> {
  const tooLarge = () =>
    jsonRpcError(413, `Payload Too Large: Request body must not exceed ${limits.maxBytes} bytes`);
  if (Number(request.headers.get("content-length")) > limits.maxBytes) return tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  let timedOut = false;
  const timer = limits.timeoutMs > 0
    ? setTimeout(() => {
      timedOut = true;
      limits.onTimeout?.();
      reader.cancel().catch(() => {});
    }, limits.timeoutMs)
    : undefined;
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || timedOut) break;
      received += value.byteLength;
      if (received > limits.maxBytes) {
        await reader.cancel();
        return tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (!timedOut) {
      return jsonRpcError(400, `Cannot read the request body: ${(error as Error).message}`);
    }
  } finally {
    clearTimeout(timer);
  }
  if (timedOut) {
    return jsonRpcError(408, `Request Timeout: the body did not arrive within ${limits.timeoutMs / 1000} s`);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) (bytes.set(chunk, offset), offset += chunk.byteLength);
  return new TextDecoder().decode(bytes);
}

type Message = Record<string, unknown>;

/** A JSON-RPC 2.0 request, notification or response, as far as shape goes. */
function isMessage(value: unknown): value is Message {
  if (!isObject(value) || value.jsonrpc !== "2.0") return false;
  if ("method" in value) return typeof value.method === "string";
  return "id" in value && ("result" in value || "error" in value);
}

/** What the SDK's InitializeRequestSchema requires, minus the checks it makes itself. */
function isInitialize(message: Message): boolean {
  const params = message.params;
  return message.method === "initialize" &&
    (typeof message.id === "string" || typeof message.id === "number") &&
    isObject(params) && typeof params.protocolVersion === "string" && isObject(params.capabilities) &&
    isObject(params.clientInfo) && typeof params.clientInfo.name === "string" &&
    typeof params.clientInfo.version === "string";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
