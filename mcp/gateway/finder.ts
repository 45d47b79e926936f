/** The ranking over a catalog that changes: one index per catalog snapshot, rebuilt when the catalog is. */
import { buildIndex, type SearchIndex, searchIndex, suggestNames } from "./rank.ts";
import type { Finder } from "./tools.ts";
import type { CatalogTool } from "./types.ts";

/** A {@link Finder} that indexes a catalog once and again only when it gets a new catalog array. */
export function createFinder(): Finder {
  let indexed: { tools: CatalogTool[]; index: SearchIndex } | undefined;
  const indexOf = (tools: CatalogTool[]): SearchIndex => {
    if (indexed?.tools !== tools) indexed = { tools, index: buildIndex(tools) };
    return indexed.index;
  };
  return {
    search: (tools, query, options) => searchIndex(indexOf(tools), query, options),
    suggest: (tools, name) => suggestNames(indexOf(tools), name),
  };
}
