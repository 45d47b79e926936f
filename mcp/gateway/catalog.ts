/** The merged catalog: each entry's visible tools under their qualified names, and where to route a call. */
import type { Tool } from "../../lib/mcp/sdk.ts";
import { toolAllowed } from "./tool_filter.ts";
import type { CatalogTool, ServerConfig } from "./types.ts";

/** One enabled entry and the last tools/list of its connection. */
export interface CatalogSource<L> {
  config: ServerConfig;
  link: L;
  tools: readonly Tool[];
  instructions?: string;
}

/** Where a qualified name goes. */
export interface Route<L> {
  config: ServerConfig;
  link: L;
  tool: Tool;
}

/**
 * Applies each entry's allow/deny globs and description overrides and names the tools; on a collision the
 * first entry in config order keeps the name (the names module reports collisions).
 */
export function buildCatalog<L>(
  sources: readonly CatalogSource<L>[],
  nameTool: (prefix: string, tool: string) => string,
): { catalog: CatalogTool[]; routes: Map<string, Route<L>> } {
  const routes = new Map<string, Route<L>>();
  const catalog: CatalogTool[] = [];
  for (const { config, link, tools, instructions } of sources) {
    for (const tool of tools) {
      if (!toolAllowed(config.tools, tool.name)) continue;
      const qualifiedName = nameTool(config.prefix, tool.name);
      if (routes.has(qualifiedName)) continue;
      routes.set(qualifiedName, { config, link, tool });
      catalog.push(toCatalogTool(qualifiedName, config, tool, instructions));
    }
  }
  return { catalog, routes };
}

function toCatalogTool(
  qualifiedName: string,
  config: ServerConfig,
  tool: Tool,
  instructions?: string,
): CatalogTool {
  const description = Object.hasOwn(config.descriptions, tool.name)
    ? config.descriptions[tool.name]
    : tool.description;
  return {
    qualifiedName,
    server: config.name,
    ...(instructions === undefined ? {} : { serverInstructions: instructions }),
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(description === undefined ? {} : { description }),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema === undefined
      ? {}
      : { outputSchema: tool.outputSchema as Record<string, unknown> }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  };
}
