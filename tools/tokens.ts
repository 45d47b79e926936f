/** What a tool costs the agent on every request: o200k tokens of its name, description and input schema. */
import { encode } from "gpt-tokenizer";

/** The parts of a listed tool that reach the model on every request. */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: unknown;
}

/** o200k tokens of name + description + input schema JSON. */
export function toolTokens(tool: ListedTool): number {
  return encode(`${tool.name}${tool.description ?? ""}${JSON.stringify(tool.inputSchema)}`).length;
}

/** Sum of {@link toolTokens} over a server's tools/list. */
export function listTokens(tools: readonly ListedTool[]): number {
  return tools.reduce((sum, tool) => sum + toolTokens(tool), 0);
}
