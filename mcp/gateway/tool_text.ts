/**
 * The text of a catalog tool, field by field, as the search ranks it. Each field is bounded: a downstream
 * server writes all of it, and a megabyte description or a schema of 100,000 parameters must not make the
 * index cost more than a few tens of kilobytes of text per tool. The bounds sit far above what real tools
 * write (a long description runs to 2 or 3 KB), so ranking is unchanged for them.
 * @module
 */
import type { CatalogTool } from "./types.ts";

/** Characters of a name (the tool's, a parameter's) or a title that are indexed. */
export const INDEXED_NAME_CHARS = 256;
/** Characters of a description indexed: its start, where a tool says what it does. */
export const INDEXED_DESCRIPTION_CHARS = 4_096;
/** Characters of the server's instructions indexed with each of its tools. */
export const INDEXED_INSTRUCTIONS_CHARS = 4_096;
/** Parameters indexed per tool, nested ones included. */
export const INDEXED_PARAMS = 64;
/** Characters of all of a tool's parameter descriptions indexed, together. */
export const INDEXED_PARAM_DESCRIPTION_CHARS = 4_096;

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

/** The start of `text`, at most `max` characters, not ending in half a surrogate pair. */
function head(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

function collectParams(schema: unknown, text: ToolText, depth: number, budget: { chars: number }): void {
  const properties = asRecord(asRecord(schema)?.properties);
  if (!properties) return;
  for (const [name, value] of Object.entries(properties)) {
    if (text.paramNames.length >= INDEXED_PARAMS) return;
    const property = asRecord(value);
    text.paramNames.push(head(name, INDEXED_NAME_CHARS));
    const description = property?.description;
    if (typeof description === "string" && budget.chars > 0) {
      const kept = head(description, budget.chars);
      text.paramDescriptions.push(kept);
      budget.chars -= kept.length;
    }
    if (depth > 0) {
      collectParams(property, text, depth - 1, budget);
      collectParams(property?.items, text, depth - 1, budget);
    }
  }
}

/** Pulls the searchable text out of a catalog tool, each part bounded; a missing part is an empty string. */
export function toolText(tool: CatalogTool): ToolText {
  const text: ToolText = {
    name: head(tool.name, INDEXED_NAME_CHARS),
    title: head(tool.title ?? tool.annotations?.title ?? "", INDEXED_NAME_CHARS),
    description: head(tool.description ?? "", INDEXED_DESCRIPTION_CHARS),
    paramNames: [],
    paramDescriptions: [],
    server: tool.server,
    serverInstructions: head(tool.serverInstructions ?? "", INDEXED_INSTRUCTIONS_CHARS),
  };
  collectParams(tool.inputSchema, text, 1, { chars: INDEXED_PARAM_DESCRIPTION_CHARS });
  return text;
}
