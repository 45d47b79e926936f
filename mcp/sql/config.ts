/**
 * The configs a run can use (the house style for this backend and major version; the workspace's own is
 * read by `workspace_config.ts`) and the small INI edits the runner needs. No SDK, no zod.
 * @module
 */
import { fileURLToPath as fromFileUrl } from "node:url";
import type { Backend } from "./backend.ts";

/** The config text one run writes into its temp working folder. */
export interface ChosenConfig {
  /** The INI text. */
  text: string;
  /** How the result names it: `house style` or `.sqlfluff (workspace)`. */
  label: string;
  /** True for a workspace file, false for the house style. */
  workspace: boolean;
}

/** The house-style file for a backend: sqruff, sqlfluff 1.x (rule codes), sqlfluff >= 2 (rule names). */
export function houseConfigFile(backend: Backend): string {
  const name = backend.kind === "sqruff"
    ? "house.sqruff"
    : backend.major <= 1
    ? "house.sqlfluff-1.cfg"
    : "house.sqlfluff-2.cfg";
  return fromFileUrl(new URL(`./${name}`, import.meta.url));
}

/** Workspace config names a backend reads, in priority order (sqlfluff does not read `.sqruff`). */
export function workspaceConfigNames(backend: Backend): string[] {
  return backend.kind === "sqruff" ? [".sqruff", ".sqlfluff"] : [".sqlfluff"];
}

const CORE_SECTION = /^\s*\[(sqruff|sqlfluff)\]\s*$/i;
const ANY_SECTION = /^\s*\[[^\]]*\]\s*$/;

/** The value of `key` in the core `[sqruff]` / `[sqlfluff]` section, or undefined. */
export function coreValue(ini: string, key: string): string | undefined {
  let inCore = false;
  for (const line of ini.split(/\r?\n/)) {
    if (ANY_SECTION.test(line)) {
      inCore = CORE_SECTION.test(line);
      continue;
    }
    const match = inCore ? line.match(/^\s*([\w.]+)\s*[=:]\s*(.*?)\s*$/) : null;
    if (match && match[1].toLowerCase() === key) return match[2];
  }
  return undefined;
}

/**
 * `ini` with `key = value` set in the core section: replaced where it is, else added at the top of the
 * section, else a core section is added. Never repeats a section header (sqlfluff 1.x crashes on that).
 */
export function setCoreValue(ini: string, key: string, value: string, section = "sqlfluff"): string {
  const lines = ini.split(/\r?\n/);
  let inCore = false;
  let coreHeader = -1;
  for (let i = 0; i < lines.length; i++) {
    if (ANY_SECTION.test(lines[i])) {
      inCore = CORE_SECTION.test(lines[i]);
      if (inCore && coreHeader < 0) coreHeader = i;
      continue;
    }
    const match = inCore ? lines[i].match(/^\s*([\w.]+)\s*[=:]/) : null;
    if (match && match[1].toLowerCase() === key) {
      lines[i] = `${key} = ${value}`;
      return lines.join("\n");
    }
  }
  if (coreHeader >= 0) {
    lines.splice(coreHeader + 1, 0, `${key} = ${value}`);
    return lines.join("\n");
  }
  return `[${section}]\n${key} = ${value}\n\n${ini}`;
}

/** The rules `sql_format` applies: layout and capitalisation plus the safe set of `sqlfluff format`. */
export function formatRules(backend: Backend): string {
  if (backend.kind === "sqlfluff" && backend.major <= 1) {
    return [...new Set(Object.values(LEGACY_CODES).flat())].sort().join(",");
  }
  return "capitalisation,layout,AM02,CV01,CV02,CV03,CV05";
}

/** sqlfluff 1.x codes for the >= 2 codes and groups of the format set (from the rules' `aliases`). */
const LEGACY_CODES: Record<string, string[]> = {
  LT01: ["L001", "L005", "L006", "L008", "L023", "L024", "L039", "L048", "L071"],
  LT02: ["L002", "L003", "L004"],
  LT03: ["L007"],
  LT04: ["L019"],
  LT05: ["L016"],
  LT06: ["L017"],
  LT07: ["L018"],
  LT08: ["L022"],
  LT09: ["L036"],
  LT10: ["L041"],
  LT11: ["L065"],
  LT12: ["L009"],
  LT13: ["L050"],
  CP01: ["L010"],
  CP02: ["L014"],
  CP03: ["L030"],
  CP04: ["L040"],
  CP05: ["L063"],
  AM02: ["L033"],
  CV01: ["L061"],
  CV02: ["L060"],
  CV03: ["L038"],
  CV05: ["L049"],
  JJ01: ["L046"],
  ST08: ["L015"],
};

const LEGACY_GROUPS: Record<string, string[]> = {
  capitalisation: ["CP01", "CP02", "CP03", "CP04", "CP05"],
  layout: Object.keys(LEGACY_CODES).filter((code) => code.startsWith("LT")),
};

/**
 * The `rules` argument as the backend spells it: for sqlfluff 1.x, >= 2 codes (`CP01`) and the
 * `capitalisation` / `layout` groups become 1.x codes; anything else passes through unchanged.
 */
export function backendRules(rules: readonly string[], backend: Backend): string[] {
  if (backend.kind !== "sqlfluff" || backend.major > 1) return [...rules];
  const out: string[] = [];
  for (const rule of rules) {
    const group = LEGACY_GROUPS[rule.toLowerCase()];
    const codes = group ?? [rule.toUpperCase()];
    for (const code of codes) out.push(...(LEGACY_CODES[code] ?? [rule]));
  }
  return [...new Set(out)];
}
