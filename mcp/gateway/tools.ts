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
import { capResult, RESULT_BUDGET_CHARS } from "./result_cap.ts";
import { describeTool, healthLine, hitLine } from "./render.ts";
import type { CatalogTool, SearchHit, ServerStatus } from "./types.ts";
import { createLookup, nameList, reviveAwaitingAuth } from "./lookup.ts";

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
  /**
   * Resolves once server `name` is up or has failed again: waits for its connect in flight, or starts one
   * when it is down and past its backoff; at once otherwise.
   */
  revive?(name: string): Promise<void>;
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

/** The gateway's tool table. */
export function createTools(deps: ToolDeps): ToolDefinition[] {
  const { backend, finder } = deps;
  const budget = deps.resultBudgetChars ?? RESULT_BUDGET_CHARS;

  const find = createLookup(backend, finder);
  // One at a time, in order: the first unknown name is the error, as before.
  const findAll = async (names: readonly string[]) => {
    const found: CatalogTool[] = [];
    for (const name of names) found.push(await find(name));
    return found;
  };

  const call = async (name: string, args: Record<string, unknown> | undefined, context: ToolContext) =>
    capResult(
      await backend.call((await find(name)).qualifiedName, args ?? {}, {
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
      run: async ({ query, limit, server }) => {
        await reviveAwaitingAuth(backend);
        const tools = backend.catalog();
        const selected = query.trim().match(/^select:(.*)$/i)?.[1];
        const lines = selected === undefined
          ? finder.search(tools, query, {
            limit: Math.max(1, Math.min(limit ?? DEFAULT_LIMIT, MAX_LIMIT)),
            server,
          })
            .map((hit) => hitLine(hit.tool))
          : await findAll(nameList(selected, MAX_LIMIT, "select", "search")).then((found) =>
            found.map(hitLine)
          );
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
      run: async ({ names }) =>
        (await findAll(nameList(names, MAX_DESCRIBED, "describe", "call"))).map(describeTool).join("\n"),
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
      run: async ({ name, arguments: args }, context) => {
        const tool = await find(name);
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
