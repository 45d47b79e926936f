/** The text of a catalog tool, field by field, as the search ranks it. */
import type { CatalogTool } from "./types.ts";

/** A tool's searchable text: name, title, description, parameters (names and descriptions), server. */
export interface ToolText {
  name: string;
  title: string;
  description: string;
  /** Parameter names, including those one level down in array items and objects. */
  paramNames: string[];
  paramDescriptions: string[];
  server: string;
  serverInstructions: string;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

function collectParams(schema: unknown, text: ToolText, depth: number): void {
  const properties = asRecord(asRecord(schema)?.properties);
  if (!properties) return;
  for (const [name, value] of Object.entries(properties)) {
    const property = asRecord(value);
    text.paramNames.push(name);
    if (typeof property?.description === "string") text.paramDescriptions.push(property.description);
    if (depth > 0) {
      collectParams(property, text, depth - 1);
      collectParams(property?.items, text, depth - 1);
    }
  }
}

/** Pulls the searchable text out of a catalog tool; a missing part is an empty string. */
export function toolText(tool: CatalogTool): ToolText {
  const text: ToolText = {
    name: tool.name,
    title: tool.title ?? tool.annotations?.title ?? "",
    description: tool.description ?? "",
    paramNames: [],
    paramDescriptions: [],
    server: tool.server,
    serverInstructions: tool.serverInstructions ?? "",
  };
  collectParams(tool.inputSchema, text, 1);
  return text;
}
