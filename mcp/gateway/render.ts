/** How the gateway shows tools to the model: one line per hit, compact descriptions, server health. */
import type { CatalogTool, ServerStatus } from "./types.ts";
import { authCommand } from "./oauth/needs_auth.ts";

/** Characters of a description kept on a search line. */
const LINE_CHARS = 110;
/** Characters of a description read for its first line (a server may send megabytes). */
const LINE_SCAN_CHARS = 4_096;

/** `github__list_issues — List issues in a repository (read-only)` */
export function hitLine(tool: CatalogTool): string {
  const readOnly = tool.annotations?.readOnlyHint === true ? " (read-only)" : "";
  return `${tool.qualifiedName} — ${oneLine(tool.description ?? tool.title ?? "")}${readOnly}`;
}

/** The first sentence (or line) of a description, shortened to one search line. */
export function oneLine(description: string): string {
  const flat = description.slice(0, LINE_SCAN_CHARS).replace(/\s+/g, " ").trim();
  const sentence = flat.match(/^.+?[.!?](?=\s|$)/)?.[0] ?? flat;
  return sentence.length > LINE_CHARS ? `${sentence.slice(0, LINE_CHARS - 1).trimEnd()}…` : sentence;
}

/** What the model needs to call a tool: its full schemas and annotations, one compact JSON object. */
export function describeTool(tool: CatalogTool): string {
  return JSON.stringify({
    name: tool.qualifiedName,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description ?? "",
    input: tool.inputSchema,
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.outputSchema ? { output: tool.outputSchema } : {}),
  });
}

/**
 * `down: db (MCP server "db" timed out after 30000ms); connecting: jira` — empty when all are up and the
 * config file is good.
 */
export function healthLine(statuses: readonly ServerStatus[], configError?: string): string {
  const down = statuses.filter((status) => status.state === "down" && !status.needsAuth)
    .map((status) => `${status.name} (${status.reason ?? "unknown reason"})`);
  const unauthorised = statuses.filter((status) => status.needsAuth)
    .map((status) => `${status.name} (run "${authCommand(status.name)}")`);
  const connecting = statuses.filter((status) => status.state === "connecting" && !status.needsAuth)
    .map((status) => status.name);
  return [
    configError ? `config not reloaded, the last good one is in use: ${configError}` : "",
    down.length ? `down: ${down.join(", ")}` : "",
    unauthorised.length ? `needs auth: ${unauthorised.join(", ")}` : "",
    connecting.length ? `connecting: ${connecting.join(", ")}` : "",
  ].filter(Boolean).join("; ");
}
