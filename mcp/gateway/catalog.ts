/** The merged catalog: each entry's visible tools under their qualified names, and where to route a call. */
import type { Tool } from "../../lib/mcp/sdk.ts";
import { assignNames, toolKey } from "./names.ts";
import { toolDescription, toolVisible } from "./tool_filter.ts";
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
 * Applies each entry's allow/deny globs and description overrides and names the tools `<server>__<tool>`
 * (64 characters at most); on a collision a name valid as written wins over a normalised one, then the first
 * in config order; the other gets a hash suffix, and the collision is reported (names.ts).
 */
export function buildCatalog<L>(
  sources: readonly CatalogSource<L>[],
): { catalog: CatalogTool[]; routes: Map<string, Route<L>>; collisions: string[] } {
  const visible = sources.flatMap((source) =>
    source.tools.filter((tool) => toolVisible(source.config, tool.name)).map((tool) => ({ source, tool }))
  );
  const { names, collisions } = assignNames(
    visible.map(({ source, tool }) => ({
      server: source.config.name,
      prefix: source.config.prefix,
      tool: tool.name,
    })),
  );
  const routes = new Map<string, Route<L>>();
  const catalog: CatalogTool[] = [];
  for (const { source: { config, link, instructions }, tool } of visible) {
    const qualifiedName = names.get(toolKey(config.name, tool.name))!;
    if (routes.has(qualifiedName)) continue; // the same tool listed twice by one server
    routes.set(qualifiedName, { config, link, tool });
    catalog.push(toCatalogTool(qualifiedName, config, tool, instructions));
  }
  return { catalog, routes, collisions };
}

function toCatalogTool(
  qualifiedName: string,
  config: ServerConfig,
  tool: Tool,
  instructions?: string,
): CatalogTool {
  const description = toolDescription(config, tool);
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
