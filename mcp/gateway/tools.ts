/** The gateway's four tools: find a downstream tool, read its schema, call it (write-capable or read-only). */
import { z } from "zod";
import {
  defineTool,
  type ProgressUpdate,
  type ToolContext,
  type ToolDefinition,
} from "../../lib/mcp/tool.ts";
import { ToolError } from "../../lib/mcp/errors.ts";
import type { CallToolResult } from "../../lib/mcp/sdk.ts";
import { capQuote } from "../../lib/text/cap.ts";
import { formatCount } from "../../lib/text/format.ts";
import { capResult, RESULT_BUDGET_CHARS } from "./result_cap.ts";
import { describeTool, healthLine, hitLine } from "./render.ts";
import type { CatalogTool, SearchHit, ServerStatus } from "./types.ts";
import { prefixOf, SEPARATOR } from "./names.ts";

/** The downstream side as the tools see it. */
export interface Backend {
  catalog(): CatalogTool[];
  status(): ServerStatus[];
  /** Why the config file on disk is not in use (hot reload keeps the last good one), if it is not. */
  configError?(): string | undefined;
  call(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallToolResult>;
}

/** How the tools call through: the upstream signal, and the upstream progress relay when one was asked for. */
export interface CallOptions {
  signal: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  /** The client's request id for this call: what the server's questions meanwhile are related to. */
  origin?: string | number;
}

/** Ranking over the current catalog. */
export interface Finder {
  search(tools: CatalogTool[], query: string, options: { limit: number; server?: string }): SearchHit[];
  /** Known names closest to an unknown one, best first. */
  suggest(tools: CatalogTool[], name: string): string[];
}

/** What the tools need. */
export interface ToolDeps {
  backend: Backend;
  finder: Finder;
  resultBudgetChars?: number;
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const CALLS = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
const DEFAULT_LIMIT = 5;
/** The most hits a search shows, and so the most names `select:` takes. */
const MAX_LIMIT = 50;
/** The most tools one gateway_describe names (each may carry a large schema). */
const MAX_DESCRIBED = 20;

/** Arguments for the downstream tool: any object (its own schema is checked downstream). */
const callInput = {
  name: z.string().describe("server__tool, from gateway_search"),
  arguments: z.object({}).catchall(z.unknown()).optional(),
};

/** The configured server a `server__tool` name points at, when that server is not up. */
function serverNotUp(statuses: readonly ServerStatus[], name: string): ServerStatus | undefined {
  const at = name.indexOf(SEPARATOR);
  if (at <= 0) return undefined;
  const prefix = name.slice(0, at);
  return statuses.find((status) =>
    prefixOf(status.name) === prefix && (status.state === "down" || status.state === "connecting")
  );
}

/**
 * The names of a comma list (or an array), trimmed, empty ones dropped; more than `max` is refused before
 * any is looked up (a string is not held to the array form's schema limit).
 */
function nameList(names: string | readonly string[], max: number, action: string, per: string): string[] {
  const list = (typeof names === "string" ? names.split(",") : names).map((name) => name.trim()).filter(
    Boolean,
  );
  if (list.length > max) {
    throw new ToolError(
      "invalid_argument",
      `Cannot ${action} ${formatCount(list.length)} tools at once: at most ${max} names per ${per}`,
    );
  }
  return list;
}

/** The gateway's tool table. */
export function createTools(deps: ToolDeps): ToolDefinition[] {
  const { backend, finder } = deps;
  const budget = deps.resultBudgetChars ?? RESULT_BUDGET_CHARS;

  const find = (name: string): CatalogTool => {
    const tools = backend.catalog();
    const tool = tools.find((entry) => entry.qualifiedName === name);
    if (tool) return tool;
    const server = serverNotUp(backend.status(), name);
    if (server) {
      // Its tools are unknown until it comes up: say why it is not, rather than "no such tool".
      throw new ToolError(
        "unavailable",
        `Cannot find tool "${capQuote(name)}": MCP server "${server.name}" is ${server.state}${
          server.reason ? ` (${server.reason})` : ""
        }`,
      );
    }
    const near = finder.suggest(tools, name);
    throw new ToolError(
      "not_found",
      `Cannot find tool "${capQuote(name)}"${
        near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(", ")}?` : ""
      }; gateway_search lists tools`,
    );
  };

  const call = async (name: string, args: Record<string, unknown> | undefined, context: ToolContext) =>
    capResult(
      await backend.call(find(name).qualifiedName, args ?? {}, {
        signal: context.signal,
        ...(context.relayProgress ? { onProgress: context.relayProgress } : {}),
        ...(context.requestId === undefined ? {} : { origin: context.requestId }),
      }),
      budget,
    );

  return [
    defineTool({
      name: "gateway_search",
      description:
        "Find tools of the connected servers: ranked `server__tool — what it does`. select:a,b shows exactly those. Then gateway_describe or call.",
      input: {
        query: z.string(),
        limit: z.number().optional(),
        server: z.string().optional(),
      },
      annotations: READ_ONLY,
      run: ({ query, limit, server }) => {
        const tools = backend.catalog();
        const selected = query.trim().match(/^select:(.*)$/i)?.[1];
        const lines = selected === undefined
          ? finder.search(tools, query, {
            limit: Math.max(1, Math.min(limit ?? DEFAULT_LIMIT, MAX_LIMIT)),
            server,
          })
            .map((hit) => hitLine(hit.tool))
          : nameList(selected, MAX_LIMIT, "select", "search").map((name) => hitLine(find(name)));
        const health = healthLine(backend.status(), backend.configError?.());
        const body = lines.length
          ? lines.join("\n")
          : `No tool matches "${capQuote(query)}" among ${tools.length} tools`;
        return health ? `${body}\n[${health}]` : body;
      },
    }),
    defineTool({
      name: "gateway_describe",
      description: "Full input schema, annotations and output schema of the named tools (server__tool).",
      input: { names: z.union([z.string(), z.array(z.string()).max(MAX_DESCRIBED)]) },
      annotations: READ_ONLY,
      run: ({ names }) =>
        nameList(names, MAX_DESCRIBED, "describe", "call").map((name) => describeTool(find(name))).join("\n"),
    }),
    defineTool({
      name: "gateway_call",
      description:
        "Call a tool of a connected server (server__tool) with its arguments; returns its result as is.",
      input: callInput,
      output: "passthrough",
      annotations: CALLS,
      run: ({ name, arguments: args }, context) => call(name, args, context),
    }),
    defineTool({
      name: "gateway_call_read",
      description: "Like gateway_call, for tools annotated read-only (runs in parallel and in plan mode).",
      input: callInput,
      output: "passthrough",
      annotations: READ_ONLY,
      run: ({ name, arguments: args }, context) => {
        const tool = find(name);
        if (tool.annotations?.readOnlyHint !== true) {
          throw new ToolError(
            "permission_denied",
            `Cannot call "${name}" read-only: the tool is not annotated read-only; use gateway_call`,
          );
        }
        return call(name, args, context);
      },
    }),
  ];
}
