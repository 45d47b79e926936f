/** Diagnostics for humans, on stderr only: stdout belongs to the MCP protocol. */
const encoder = new TextEncoder();

function write(level: string, message: string, detail?: unknown): void {
  const extra = detail === undefined
    ? ""
    : ` ${detail instanceof Error ? detail.stack ?? detail.message : String(detail)}`;
  try {
    Deno.stderr.writeSync(encoder.encode(`[${level}] ${message}${extra}\n`));
  } catch {
    // stderr closed: nowhere left to report to.
  }
}

/** Leveled stderr logger; `MCP_LOG=debug` enables debug lines. */
export const log = {
  debug(message: string, detail?: unknown): void {
    if (Deno.env.get("MCP_LOG") === "debug") write("debug", message, detail);
  },
  info(message: string, detail?: unknown): void {
    write("info", message, detail);
  },
  error(message: string, detail?: unknown): void {
    write("error", message, detail);
  },
};
