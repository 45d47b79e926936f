/** The gateway's `instructions`: which servers sit behind it and what each is for, so the model searches. */
import { oneLine } from "./render.ts";
import type { ServerStatus } from "./types.ts";

/** The ceiling: instructions are paid for on every request too. */
export const MAX_INSTRUCTIONS_CHARS = 1_500;

const LEAD = "More tools sit behind this gateway: find them with gateway_search, read a schema with " +
  "gateway_describe, run them with gateway_call (gateway_call_read for read-only ones).";

/** The lead sentence and one entry per server, cut to {@link MAX_INSTRUCTIONS_CHARS} with a count of the rest. */
export function gatewayInstructions(statuses: readonly ServerStatus[]): string {
  const shown = statuses.filter((status) => status.state !== "disabled");
  if (!shown.length) return `${LEAD} No servers are configured yet.`;
  let text = `${LEAD} Servers:`;
  for (const [i, status] of shown.entries()) {
    const what = status.instructions ? ` — ${oneLine(status.instructions)}` : "";
    const down = status.needsAuth ? " (needs auth)" : status.state === "down" ? " (down)" : "";
    const entry = `\n- ${status.name}${down}${what}`;
    const rest = shown.length - i - 1;
    const reserve = rest ? `\n(+${rest} more: gateway_search finds their tools)`.length : 0;
    if (text.length + entry.length + reserve > MAX_INSTRUCTIONS_CHARS) {
      return `${text}\n(+${shown.length - i} more: gateway_search finds their tools)`;
    }
    text += entry;
  }
  return text;
}
