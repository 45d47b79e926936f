/**
 * A server's whole tools/list, tool by tool: the SDK's listTools() rejects the whole list when one tool is
 * malformed (an `inputSchema` of `{ "type": "string" }` took every tool of a server down). Here each tool
 * is checked on its own; a bad one is skipped with a one-line reason and the rest are kept.
 * @module
 */
import { z } from "zod";
import { type Tool, ToolSchema } from "../../lib/mcp/sdk.ts";
import type { Client } from "../../lib/mcp/sdk_client.ts";
import { capQuote } from "../../lib/text/cap.ts";

/** A tools/list page, each tool left unchecked. */
const ToolPageSchema = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/** The tools a server listed, and why each skipped one was. */
export interface ToolListing {
  tools: Tool[];
  /** `skipped its tool "broken": inputSchema.type: Invalid input: expected "object"` */
  skipped: string[];
}

/** Every tool of the server, following pagination cursors; a malformed tool is skipped with its reason. */
export async function listAllTools(client: Client): Promise<ToolListing> {
  const listing: ToolListing = { tools: [], skipped: [] };
  let cursor: string | undefined;
  do {
    const page = await client.request(
      { method: "tools/list", ...(cursor === undefined ? {} : { params: { cursor } }) },
      ToolPageSchema,
    );
    for (const raw of page.tools) {
      const parsed = ToolSchema.safeParse(raw);
      if (parsed.success) listing.tools.push(parsed.data);
      else listing.skipped.push(skipReason(raw, parsed.error.issues));
    }
    cursor = page.nextCursor;
  } while (cursor);
  return listing;
}

function skipReason(raw: unknown, issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const name = (raw as { name?: unknown } | null)?.name;
  const which = typeof name === "string" ? `"${capQuote(name, 64)}"` : "without a name";
  const [first] = issues;
  const where = first?.path.length ? `${first.path.map(String).join(".")}: ` : "";
  return `skipped its tool ${which}: ${capQuote(`${where}${first?.message ?? "malformed"}`, 160)}`;
}
