/** A downstream result cut to the gateway's budget, saying what it cut; everything else passes untouched. */
import type { CallToolResult } from "../../lib/mcp/sdk.ts";
import { capText } from "../../lib/text/cap.ts";

/** ~20,000 tokens at ~4 characters a token: the default budget of one relayed result. */
export const RESULT_BUDGET_CHARS = 80_000;

/** Caps every text block and drops a structuredContent larger than the budget (its text form stays, capped). */
export function capResult(result: CallToolResult, budgetChars = RESULT_BUDGET_CHARS): CallToolResult {
  let left = budgetChars;
  const content = result.content.map((block) => {
    if (block.type !== "text") return block;
    const text = block.text.length > left ? capText(block.text, Math.max(left, 200)) : block.text;
    left = Math.max(0, left - text.length);
    return text === block.text ? block : { ...block, text };
  });
  const structured = result.structuredContent;
  if (structured && JSON.stringify(structured).length > budgetChars) {
    const { structuredContent: _, ...rest } = result;
    return {
      ...rest,
      content: [...content, {
        type: "text",
        text:
          `[gateway: structuredContent over ${budgetChars} characters dropped; the text above is its form]`,
      }],
    };
  }
  return content.some((block, i) => block !== result.content[i]) ? { ...result, content } : result;
}
