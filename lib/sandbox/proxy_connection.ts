/**
 * One client connection to the sandbox's proxy: read the request head (bounded in size and time), ask the
 * policy, then tunnel (CONNECT) or forward one plain-http request to the checked addresses, or answer 403
 * and report the refusal.
 * @module
 */
import { BadProxyRequest, parseRequest, type ProxyRequest, readHead } from "./proxy_request.ts";
import type { DomainPolicy, JobGrants, RefusalReason } from "./proxy_policy.ts";
import { errorResponse, refusalResponse } from "./proxy_refusal.ts";
import { closeQuietly, relay, writeAll } from "./proxy_pipe.ts";

/** The bounds of one connection. */
export interface ConnectionLimits {
  /** Largest request head accepted. */
  headBytes: number;
  /** Time a client has to send its request head. */
  headTimeoutMs: number;
  /** Time to resolve the host and connect to it. */
  connectTimeoutMs: number;
  /** A tunnel or request with no byte either way for this long is dropped. */
  idleTimeoutMs: number;
}

/** What {@link serveConnection} needs from the proxy. */
export interface ConnectionContext {
  policy: DomainPolicy;
  grants: JobGrants;
  limits: ConnectionLimits;
  /** Over the connection limits: answer 503 and close. */
  busy: boolean;
  deny: (host: string, port: number, reason: RefusalReason) => void;
  /** The job's listener is closing: drop everything. */
  signal: AbortSignal;
}

/** Serves one accepted connection to its end; the caller closes `client` afterwards. */
export async function serveConnection(client: Deno.Conn, context: ConnectionContext): Promise<void> {
  const { limits, signal } = context;
  if (context.busy) {
    await send(client, errorResponse(503, "too many connections at once; retry later"));
    return;
  }
  const head = await withDeadline(limits.headTimeoutMs, signal, (deadline) => {
    deadline.addEventListener("abort", () => closeQuietly(client), { once: true });
    return readHead(client, limits.headBytes);
  }).catch(async (error) => {
    if (error instanceof BadProxyRequest) await send(client, errorResponse(400, error.message));
    return null;
  });
  if (!head) return;
  let request: ProxyRequest;
  try {
    request = parseRequest(head.head);
  } catch (error) {
    if (!(error instanceof BadProxyRequest)) throw error;
    return await send(client, errorResponse(400, error.message));
  }
  const { host, port } = request;
  // A question to the user may wait minutes: a job that ends meanwhile must not wait for the answer.
  const verdict = await untilAborted(context.policy.check(host, port, context.grants, signal), signal);
  if (!verdict) return;
  if (!verdict.allowed) {
    if (verdict.reason === "unresolved") {
      return await send(client, errorResponse(502, `cannot resolve "${host}": ${verdict.message}`));
    }
    // Recorded before the answer: the job may end as soon as it reads the 403, and its result names the host.
    context.deny(host, port, verdict.reason);
    await send(client, refusalResponse(host, verdict.reason));
    return;
  }
  const origin = await withDeadline(limits.connectTimeoutMs, signal, (deadline) => {
    return connectFirst(verdict.addresses, port, deadline);
  }).catch((error) => error instanceof Error ? error : new Error(String(error)));
  if (origin instanceof Error) {
    return await send(client, errorResponse(502, `cannot connect to "${host}:${port}": ${origin.message}`));
  }
  try {
    if (request.kind === "connect") {
      await writeAll(client, latin1("HTTP/1.1 200 Connection Established\r\n\r\n"));
    } else {
      await writeAll(origin, latin1(request.head));
    }
  } catch (error) {
    origin.close();
    throw error;
  }
  await relay(client, origin, { idleMs: limits.idleTimeoutMs, signal, first: head.rest });
}

/** Connects to the first of `addresses` that answers. */
async function connectFirst(addresses: string[], port: number, signal: AbortSignal): Promise<Deno.Conn> {
  let last: unknown;
  for (const address of addresses) {
    try {
      const hostname = address.includes(":") ? `[${address}]` : address;
      return await Deno.connect({ hostname, port, signal });
    } catch (error) {
      if (signal.aborted) throw new Error("timed out");
      last = error;
    }
  }
  throw last instanceof Error ? last : new Error("no address answered");
}

/** Runs `task` with a signal that aborts after `ms` or with `outer`; the timer never outlives the task. */
async function withDeadline<T>(
  ms: number,
  outer: AbortSignal,
  task: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error("timed out")), ms);
  const onAbort = () => controller.abort(outer.reason);
  outer.addEventListener("abort", onAbort, { once: true });
  if (outer.aborted) controller.abort(outer.reason);
  try {
    return await task(controller.signal);
  } finally {
    clearTimeout(timer);
    outer.removeEventListener("abort", onAbort);
  }
}

/** `promise`'s value, or null as soon as `signal` aborts (the promise then settles unobserved). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise<T | null>((resolve, reject) => {
    const onAbort = () => resolve(null);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

async function send(conn: Deno.Conn, text: string): Promise<void> {
  await writeAll(conn, new TextEncoder().encode(text)).catch(() => {});
}

/** HTTP heads are bytes; the head was read as latin1 and goes out byte for byte. */
function latin1(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}
