/**
 * Opens one connection to a downstream server: a child process over stdio, a remote server over HTTP
 * (remote.ts), or one of this project's servers in our own process over a linked transport pair. Raced
 * against the entry's connect timeout.
 * @module
 */
import { createLinkedPair } from "../../lib/mcp/linked_transport.ts";
import { loadServerSdk, type McpServerHandle } from "../../lib/mcp/server.ts";
import { ToolError } from "../../lib/mcp/errors.ts";
import { isHttpEnvName } from "../../lib/mcp/serve_args.ts";
import type { ClientCapabilities, Tool, Transport } from "../../lib/mcp/sdk.ts";
import { Client } from "../../lib/mcp/sdk_client.ts";
import { ChildTransport } from "../../lib/mcp/child_transport.ts";
import { VERSION } from "../../lib/version.ts";
import { bootBuiltin } from "./builtins.ts";
import { deliverResponsesInOrder } from "./ordered_delivery.ts";
import { coalesceProgress } from "./progress_coalescing.ts";
import { listAllTools } from "./tool_list.ts";
import { connectRemote, type RemoteOptions, remoteProvider } from "./remote.ts";
import { failureText, secretsOf } from "./redact.ts";
import { type LogBudget, StderrLines } from "./stderr_lines.ts";
import type { ServerConfig } from "./types.ts";

/** An open connection and what the server told us about itself. */
export interface Connection {
  client: Client;
  /** The child's pid, for stdio servers. */
  pid?: number;
  instructions?: string;
  tools: Tool[];
  /** Why each malformed tool it listed was left out (tool_list.ts). */
  skipped: string[];
  /** How a stdio child ended the connection, once it did: `exited (code 3)`, `closed its stdout…`. */
  ended?(): string | undefined;
  /** What the gateway gave the server besides its config entry's secrets (its OAuth tokens): never shown. */
  secrets(): string[];
  /**
   * Closes the client; a child gets stdin EOF, then its whole process tree is killed (SIGTERM, then SIGKILL);
   * a builtin runs its cleanup.
   */
  close(): Promise<void>;
}

/** Hooks called while connecting. */
export interface ConnectHooks {
  /** `NAME=value` added to a child's environment, by which a watchdog finds its whole tree. */
  marker?: string;
  /** One line of the child's stderr, already cut and redacted (within a budget: stderr_lines.ts). */
  stderrLine(line: string): void;
  /** The server's allowance of logged stderr, kept across its restarts. */
  stderrBudget: LogBudget;
  /** What the gateway declares as this server's client (capabilities.ts). */
  capabilities: ClientCapabilities;
  /** Wires handlers (list_changed, onclose) on the client before it connects. */
  prepare(client: Client): void;
  /** For remote servers: where OAuth tokens live. */
  remote?: RemoteOptions;
  /** Gives up connecting (the link was retired, the gateway is closing): the attempt is closed at once. */
  signal?: AbortSignal;
}

/**
 * A child's environment: the SDK's short safe list (PATH, HOME...) plus the config's `env` and the marker.
 * HTTP mode's variables (`MCP_HTTP_TOKEN` gives its holder this gateway's tools) never pass, even when the
 * config names them: serve() removed them from our process, and `${env:MCP_HTTP_TOKEN}` must not bring one back.
 */
function downstreamEnv(env: Record<string, string>, marker: string | undefined): Record<string, string> {
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !isHttpEnvName(name)));
  if (!marker) return kept;
  const at = marker.indexOf("=");
  return { ...kept, [marker.slice(0, at)]: marker.slice(at + 1) };
}

/** The exact reason a connect timeout reports. */
export function connectTimeoutReason(name: string, ms: number): string {
  return `MCP server "${name}" timed out after ${ms}ms`;
}

/** Connects to `config`'s server and lists its tools, or throws (the timeout with its exact reason). */
export async function openConnection(config: ServerConfig, hooks: ConnectHooks): Promise<Connection> {
  const client = new Client({ name: "continue-gateway", version: VERSION }, {
    capabilities: hooks.capabilities,
  });
  hooks.prepare(client);
  let builtin: McpServerHandle | undefined;
  let transport: ChildTransport | undefined;
  let remote: Transport | undefined;
  let provider: ReturnType<typeof remoteProvider>;
  let lines: StderrLines | undefined;
  const secrets = () => [...secretsOf(config), ...provider?.secrets() ?? []];
  const close = async () => {
    await client.close().catch(() => {});
    await transport?.close().catch(() => {});
    await remote?.close().catch(() => {});
    await builtin?.close().catch(() => {});
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new Error(connectTimeoutReason(config.name, config.connectTimeoutMs)));
    }, config.connectTimeoutMs);
    hooks.signal?.addEventListener("abort", () => {
      timedOut = true;
      reject(new Error(`Stopped connecting to MCP server "${config.name}": it is no longer needed`));
    }, { once: true });
  });
  const handshake = async (): Promise<Connection> => {
    const spec = config.transport;
    if (spec.kind === "builtin") {
      builtin = await bootBuiltin(spec.server);
      await loadServerSdk();
      const [clientSide, serverSide] = createLinkedPair();
      await builtin.server.connect(serverSide);
      await client.connect(clientSide);
    } else if (spec.kind === "remote") {
      const options = hooks.remote ?? {};
      provider = remoteProvider(config.name, spec, options);
      remote = await connectRemote(client, config.name, spec, provider);
    } else {
      const stderr = lines = new StderrLines({
        shape: (line) => failureText(line, secrets()),
        write: hooks.stderrLine,
        budget: hooks.stderrBudget,
      });
      transport = new ChildTransport({
        command: spec.command,
        args: spec.args,
        env: downstreamEnv(spec.env, hooks.marker),
        ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
        stderr: (chunk) => stderr.push(chunk),
      });
      await client.connect(transport);
    }
    if (client.transport) {
      deliverResponsesInOrder(client.transport);
      coalesceProgress(client.transport);
    }
    const { tools, skipped } = await listAllTools(client);
    return {
      client,
      pid: transport?.pid,
      instructions: client.getInstructions(),
      tools,
      skipped,
      ...(transport ? { ended: endedText.bind(null, transport) } : {}),
      secrets: () => provider?.secrets() ?? [],
      close,
    };
  };
  const attempt = handshake();
  try {
    return await Promise.race([attempt, timeout]);
  } catch (error) {
    attempt.catch(() => {});
    await close();
    // A ToolError (a server that needs authorising) already says what happened and what to do.
    if (timedOut || error instanceof ToolError) throw error;
    const exit = transport?.exitStatus;
    if (exit) {
      throw new Error(`Cannot connect to MCP server "${config.name}": ${crashText(exit, lines, secrets())}`);
    }
    // The server wrote this text (an HTTP error page, a crash message): the agent gets an excerpt of it.
    const message = failureText(error instanceof Error ? error.message : String(error), secrets());
    const hint = error instanceof Deno.errors.NotFound || /ENOENT/.test(message)
      ? "; check its command and cwd"
      : "";
    throw new Error(`Cannot connect to MCP server "${config.name}": ${message}${hint}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** How `transport`'s child ended the connection, or undefined while it is open. */
function endedText(transport: ChildTransport): string | undefined {
  if (transport.closedOutput) return "closed its stdout while still running, so it was stopped";
  const exit = transport.exitStatus;
  if (!exit) return undefined;
  return exit.signal ? `was killed by ${exit.signal}` : `exited (code ${exit.code})`;
}

/** Characters of a crashed server's last stderr lines quoted in its reason. */
const STDERR_TAIL_CHARS = 600;

/**
 * Why a child that exited while connecting did: its exit, and the last lines of its stderr (each redacted
 * and cut as a failure text), as many as fit {@link STDERR_TAIL_CHARS}, rather than "Connection closed".
 */
function crashText(exit: Deno.CommandStatus, lines: StderrLines | undefined, secrets: string[]): string {
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited (code ${exit.code})`;
  const tail: string[] = [];
  let length = 0;
  for (const line of (lines?.tail() ?? []).toReversed()) {
    const shown = failureText(line, secrets);
    if (tail.length && length + shown.length > STDERR_TAIL_CHARS) break;
    tail.unshift(shown);
    length += shown.length + 3;
  }
  return `it ${how} before answering${tail.length ? `; its stderr ends: ${tail.join(" | ")}` : ""}`;
}
