/**
 * Turns a workspace `.sqruff` / `.sqlfluff` into the config a backend may see: only the settings
 * `config_policy.ts` passes, written out canonically, with the templater pinned to `raw` when the file
 * names none (sqlfluff would otherwise default to jinja). Anything that could load code or files is
 * refused with an error naming the file, section and key.
 * @module
 */
import { ToolError } from "../../lib/mcp/errors.ts";
import type { BackendKind } from "./backend.ts";
import { isBackendSection, judgeSetting } from "./config_policy.ts";
import { type IniSection, IniSyntaxError, parseIni, writeIni } from "./ini.ts";

/** How to word errors and which backend reads the result. */
export interface VetOptions {
  /** The workspace file's name: `.sqlfluff`. */
  file: string;
  kind: BackendKind;
  /** What failed, for errors: `Cannot lint SQL`. */
  action: string;
}

const LISTED_REFUSALS = 4;
const MAX_SHOWN = 80;

/** The vetted config text, or a ToolError: `invalid_argument` for broken INI, `permission_denied` for a refused setting. */
export function vetConfig(text: string, options: VetOptions): string {
  const { file, action } = options;
  let sections: IniSection[];
  try {
    sections = parseIni(text);
  } catch (error) {
    if (!(error instanceof IniSyntaxError)) throw error;
    throw new ToolError(
      "invalid_argument",
      `${action}: cannot use ${file}: ${error.message}; fix or remove it`,
    );
  }
  const refused: { where: string; why: string }[] = [];
  const kept: IniSection[] = [];
  for (const section of sections) {
    // Sections of other tools (`[tool:pytest]`, Python's `[DEFAULT]`) never reach the backend.
    if (!isBackendSection(section.name)) continue;
    const entries = [];
    for (const entry of section.entries) {
      const verdict = judgeSetting(section.name, entry.key, entry.value);
      if ("refuse" in verdict) {
        const shown = entry.key.toLowerCase() === "templater" ? `${entry.key} = ${entry.value}` : entry.key;
        refused.push({ where: clip(`[${section.name}] ${shown}`), why: verdict.refuse });
      } else if ("pass" in verdict) {
        const templater = entry.key.toLowerCase() === "templater";
        entries.push(templater ? { ...entry, value: entry.value.trim().toLowerCase() } : entry);
      }
    }
    if (entries.length) kept.push({ name: section.name, entries });
  }
  if (refused.length) throw refusal(refused, options);
  return writeIni(pinTemplater(kept, options.kind));
}

/**
 * `sections` with the backend's own core section first (where the runner's core edits then land) and a
 * `templater = raw` in it unless a core section names a templater.
 */
function pinTemplater(sections: IniSection[], kind: BackendKind): IniSection[] {
  // sqruff reads both `[sqruff]` and `[sqlfluff]` as its core section; sqlfluff only `[sqlfluff]`.
  const isCore = (name: string) =>
    kind === "sqruff" ? /^(sqruff|sqlfluff)$/i.test(name) : name === "sqlfluff";
  const core = sections.filter((section) => isCore(section.name));
  // Keys are case-sensitive to sqlfluff (`Templater` is not its templater) and not to sqruff.
  const isTemplater = (key: string) =>
    kind === "sqruff" ? key.toLowerCase() === "templater" : key === "templater";
  const named = core.some((section) => section.entries.some((entry) => isTemplater(entry.key)));
  const own = sections.filter((section) => section.name === kind).flatMap((section) => section.entries);
  if (!named) own.push({ key: "templater", value: "raw", line: 0 });
  return [{ name: kind, entries: own }, ...sections.filter((section) => section.name !== kind)];
}

/** A name from the file as an error shows it: a hostile file must not flood the message. */
function clip(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}

function refusal(refused: { where: string; why: string }[], options: VetOptions): ToolError {
  const [first, ...others] = refused;
  const listed = others.slice(0, LISTED_REFUSALS).map((r) => r.where);
  const more = others.length > LISTED_REFUSALS ? ` and ${others.length - LISTED_REFUSALS} more` : "";
  const also = others.length ? `; also refused: ${listed.join(", ")}${more}` : "";
  return new ToolError(
    "permission_denied",
    `${options.action}: cannot use ${options.file}: ${first.where} is not allowed (${first.why})${also}; ` +
      `remove ${others.length ? "them" : "it"} (docs/servers/sql.md lists what a workspace config may set)`,
  );
}
