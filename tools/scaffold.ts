/**
 * What `deno task new` writes, as plain text transforms: the template server renamed, and the one-line
 * additions to deno.json, the gateway's builtin table and its example config. No I/O here.
 * @module
 */
import { parseJsonc } from "../mcp/gateway/jsonc.ts";

/** The name the template server carries; `deno task new` replaces it. */
export const TEMPLATE_NAME = "template";
/** The summary in templates/server/server.json; replaced by `--describe`. */
export const TEMPLATE_SUMMARY = "The template every new server starts from.";
/** Server names: `[a-z][a-z0-9-]*`, short enough for `<prefix>_<verb>` tool names (≤ 40 characters). */
export const SERVER_NAME = /^[a-z][a-z0-9-]*$/;
export const MAX_NAME_LENGTH = 24;

/** Why `name` cannot name a new server, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (!SERVER_NAME.test(name)) return `"${name}" is not a server name: use [a-z][a-z0-9-]*, e.g. "repo-map"`;
  if (name.length > MAX_NAME_LENGTH) return `"${name}" is longer than ${MAX_NAME_LENGTH} characters`;
  if (name.endsWith("-") || name.includes("--")) return `"${name}" has a dangling or doubled "-"`;
  return undefined;
}

/** The prefix of the server's tool names: tool names allow no "-" (`repo-map` → `repo_map_…`). */
export function toolPrefix(name: string): string {
  return name.replaceAll("-", "_");
}

/**
 * Where a template file goes: `tests/<file>` → `tests/mcp/<name>/<file>`, anything else → `mcp/<name>/<file>`.
 * `relative` uses `/` separators.
 */
export function targetPath(relative: string, name: string): string {
  return relative.startsWith("tests/") ? `tests/mcp/${name}/${relative.slice(6)}` : `mcp/${name}/${relative}`;
}

/** What a generated server is: its name, one-line summary, and whether it sits behind the gateway. */
export interface ServerSpec {
  name: string;
  summary: string;
  /** Behind the gateway (`--tail`) rather than wired into Continue directly. */
  tail: boolean;
}

/**
 * A template file's text for `spec`: the summary, `template_` tool names and the `template` name replaced
 * in one pass (so the summary is never renamed again), tests pointed at mcp/<name>/, server.json marked
 * `"tail": true` for a server behind the gateway.
 */
export function renderTemplateFile(relative: string, text: string, spec: ServerSpec): string {
  const pattern = new RegExp(
    `${escapeRegExp(TEMPLATE_SUMMARY)}|\\b${TEMPLATE_NAME}_|\\b${TEMPLATE_NAME}\\b`,
    "g",
  );
  // Inside server.json the summary is a JSON string: quote it as one.
  const summary = relative.endsWith(".json") ? JSON.stringify(spec.summary).slice(1, -1) : spec.summary;
  let out = text.replace(
    pattern,
    (found) =>
      found === TEMPLATE_SUMMARY ? summary : found.endsWith("_") ? `${toolPrefix(spec.name)}_` : spec.name,
  );
  if (relative.startsWith("tests/")) {
    // The template's tests sit one folder below its server; a generated server's tests sit in tests/mcp/<name>/.
    out = out.replace(/from "\.\.\/(?!\.\.\/)/g, `from "../../../mcp/${spec.name}/`)
      .replaceAll(
        'new URL("../", import.meta.url)',
        `new URL("../../../mcp/${spec.name}/", import.meta.url)`,
      );
  }
  if (relative === "server.json" && spec.tail) {
    out = out.replace(/^( *)("summary": .*,)$/m, '$1$2\n$1"tail": true,');
  }
  return out;
}

/** deno.json text with a `compile:<name>` task added after the last one. */
export function addCompileTask(denoJson: string, name: string, permissions: string[]): string {
  const task = `    "compile:${name}": "deno compile --no-prompt ${
    permissions.join(" ")
  } --output dist/${name}-mcp mcp/${name}/main.ts",`;
  const lines = denoJson.split("\n");
  const last = lines.findLastIndex((line) => line.trim().startsWith('"compile:'));
  if (last < 0) throw new Error('deno.json has no "compile:<name>" task to add after');
  const withComma = lines[last].endsWith(",") ? lines[last] : `${lines[last]},`;
  const added = last === lines.length - 1 || lines[last].endsWith(",") ? task : task.replace(/,$/, "");
  lines.splice(last, 1, withComma, added);
  return lines.join("\n");
}

const BUILTIN_LINE = /^ {2}(?:[a-z0-9]+|"[a-z0-9-]+"): \(\) => import\("\.\.\/[a-z0-9-]+\/boot\.ts"\),$/;

/** builtins.ts text with the new server added to the gateway's in-process table, after the last entry. */
export function addBuiltin(builtins: string, name: string): string {
  const lines = builtins.split("\n");
  const last = lines.findLastIndex((line) => BUILTIN_LINE.test(line));
  if (last < 0) throw new Error("mcp/gateway/builtins.ts has no builtin entry to add after");
  const key = /^[a-z][a-z0-9]*$/.test(name) ? name : JSON.stringify(name);
  lines.splice(last + 1, 0, `  ${key}: () => import("../${name}/boot.ts"),`);
  return lines.join("\n");
}

/** Whether builtins.ts already hosts `name`. */
export function hasBuiltin(builtins: string, name: string): boolean {
  return builtins.includes(`import("../${name}/boot.ts")`);
}

/**
 * The gateway's example config (JSONC) with `"<name>": { "builtin": "<name>" }` as the first entry of
 * `mcpServers`, after the comments that open it. Throws when the result would not hold exactly that entry.
 */
export function addGatewayEntry(jsonc: string, name: string): string {
  const lines = jsonc.split("\n");
  const open = lines.findIndex((line) => /^\s*"mcpServers": \{\s*$/.test(line));
  if (open < 0) throw new Error('the gateway config has no "mcpServers": { line to add to');
  let at = open + 1;
  while (at < lines.length && /^\s*\/\//.test(lines[at])) at++;
  const indent = /^\s*/.exec(lines[at])?.[0] || "    ";
  lines.splice(at, 0, `${indent}${JSON.stringify(name)}: { "builtin": ${JSON.stringify(name)} },`);
  const out = lines.join("\n");
  const servers = (parseJsonc(out) as { mcpServers?: Record<string, { builtin?: string }> }).mcpServers;
  if (servers?.[name]?.builtin !== name) {
    throw new Error(`the gateway config did not take the "${name}" entry`);
  }
  return out;
}

/** Whether the gateway config already has an entry called `name`. */
export function hasGatewayEntry(jsonc: string, name: string): boolean {
  const servers = (parseJsonc(jsonc) as { mcpServers?: Record<string, unknown> }).mcpServers ?? {};
  return Object.hasOwn(servers, name);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
