/**
 * One `mcpServers` entry of the gateway config, checked and turned into a `ServerConfig`: a process over
 * stdio (`command`, `args`, `env`, `cwd`, with `${env:VAR}` expanded), a remote server (`url`, `headers`:
 * config_remote.ts) or one of this project's servers (`builtin`), plus `enabled`, timeouts, tool globs, description overrides and elicitation hooks.
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import {
  at,
  configError,
  describeValue,
  expectBoolean,
  expectNonEmptyString,
  expectObject,
  expectSeconds,
  expectString,
  expectStrings,
  type Place,
  refuseUnknownKeys,
} from "./config_fields.ts";
import { prefixOf, SEPARATOR } from "./names.ts";
import { parseElicitationRules } from "./elicitation_hooks.ts";
import { parseRemote, REMOTE_KEYS } from "./config_remote.ts";
import { closestName } from "../../lib/text/distance.ts";
import type { ServerConfig } from "./types.ts";

/** Connect timeout when the entry sets no `connect_timeout_s`. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** Call timeout when the entry sets no `timeout_s`. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

const STDIO_KEYS = ["command", "args", "env", "cwd", "type", ...REMOTE_KEYS];
const COMMON_KEYS = [
  "enabled",
  "timeout_s",
  "tool_timeouts_s",
  "connect_timeout_s",
  "tools",
  "descriptions",
  "elicitation",
];
const ENTRY_KEYS = ["command", "args", "env", "cwd", "builtin", ...REMOTE_KEYS, ...COMMON_KEYS, "type"];

/** What an entry is checked against. */
export interface EntryContext {
  /** The gateway's environment, for `${env:VAR}`. */
  env: Record<string, string | undefined>;
  /** The config file's folder, against which a relative `cwd` resolves. */
  baseDir: string;
  /** The config file, absolute: part of a remote entry's OAuth identity. */
  file: string;
  /** The servers a `builtin` entry may name. */
  builtins: readonly string[];
}

/** One entry as written: its name, its value, and where it sits in the file. */
export interface RawEntry {
  name: string;
  value: unknown;
  place: Place;
}

/** The entry, checked; throws `ConfigError` naming the file, the entry and the key. */
export function parseEntry({ name, value, place }: RawEntry, context: EntryContext): ServerConfig {
  checkName(place, name);
  const entry = expectObject(place, value);
  refuseUnknownKeys(place, entry, ENTRY_KEYS);
  const enabled = entry.enabled === undefined ? true : expectBoolean(at(place, "enabled"), entry.enabled);
  const expandContext = { ...context, lenient: !enabled };
  return {
    name,
    prefix: prefixOf(name),
    transport: Object.hasOwn(entry, "builtin")
      ? parseBuiltin(place, entry, context.builtins)
      : Object.hasOwn(entry, "url")
      ? parseRemote(place, entry, {
        expand: (where, text) => expand(where, text, expandContext),
        configFile: context.file,
      })
      : parseStdio(place, entry, expandContext),
    enabled,
    connectTimeoutMs: entry.connect_timeout_s === undefined
      ? DEFAULT_CONNECT_TIMEOUT_MS
      : expectSeconds(at(place, "connect_timeout_s"), entry.connect_timeout_s),
    callTimeoutMs: entry.timeout_s === undefined
      ? DEFAULT_CALL_TIMEOUT_MS
      : expectSeconds(at(place, "timeout_s"), entry.timeout_s),
    tools: parseToolGlobs(at(place, "tools"), entry.tools),
    descriptions: parseDescriptions(at(place, "descriptions"), entry.descriptions),
    toolTimeoutsMs: parseToolTimeouts(at(place, "tool_timeouts_s"), entry.tool_timeouts_s),
    ...(entry.elicitation === undefined
      ? {}
      : { elicitation: parseElicitationRules(at(place, "elicitation"), entry.elicitation) }),
  };
}

function checkName(place: Place, name: string): void {
  if (name === "") throw configError(place, "a server name must not be empty");
  const prefix = prefixOf(name);
  if (prefix.includes(SEPARATOR)) {
    const shown = prefix === name ? "" : ` (it becomes "${prefix}" in tool names)`;
    throw configError(
      place,
      `a server name must not contain "${SEPARATOR}"${shown}: it separates server and tool in tool names`,
    );
  }
}

function parseBuiltin(
  place: Place,
  entry: Record<string, unknown>,
  builtins: readonly string[],
): ServerConfig["transport"] {
  const clash = STDIO_KEYS.find((key) => Object.hasOwn(entry, key));
  if (clash) {
    throw configError(
      at(place, clash),
      `not allowed with "builtin": a builtin runs in the gateway's process`,
    );
  }
  const server = expectNonEmptyString(at(place, "builtin"), entry.builtin);
  if (!builtins.includes(server)) {
    const suggestion = closestName(server, builtins);
    const hint = suggestion ? ` (did you mean "${suggestion}"?)` : "";
    throw configError(
      at(place, "builtin"),
      `unknown builtin server "${server}"${hint}; the builtins are ${builtins.join(", ")}`,
    );
  }
  return { kind: "builtin", server };
}

interface ExpandContext extends EntryContext {
  /** A disabled entry never starts, so an unset variable in it expands to "" instead of failing. */
  lenient: boolean;
}

function parseStdio(
  place: Place,
  entry: Record<string, unknown>,
  context: ExpandContext,
): ServerConfig["transport"] {
  if (!Object.hasOwn(entry, "command")) {
    throw configError(
      place,
      `expected "command" (a program to run), "url" (a remote server) or "builtin" (one of ${
        context.builtins.join(", ")
      })`,
    );
  }
  const remoteKey = ["headers", "oauth"].find((key) => Object.hasOwn(entry, key));
  if (remoteKey) throw configError(at(place, remoteKey), `allowed only with "url" (a remote server)`);
  if (entry.type !== undefined && entry.type !== "stdio") {
    throw configError(
      at(place, "type"),
      `expected "stdio" with "command", got ${describeValue(entry.type)} (a remote server is given by "url")`,
    );
  }
  const commandPlace = at(place, "command");
  const command = expand(commandPlace, expectNonEmptyString(commandPlace, entry.command), context);
  if (command === "" && !context.lenient) throw configError(commandPlace, "expands to an empty string");
  const argsPlace = at(place, "args");
  const args = entry.args === undefined ? [] : expectStrings(argsPlace, entry.args)
    .map((arg, index) => expand(at(argsPlace, String(index)), arg, context));
  const envPlace = at(place, "env");
  // fromEntries defines own keys: a "__proto__" key stays a variable even where the accessor exists.
  const env: Record<string, string> = Object.fromEntries(
    Object.entries(entry.env === undefined ? {} : expectObject(envPlace, entry.env)).map(([key, value]) => {
      if (key === "") throw configError(envPlace, "a variable name must not be empty");
      return [key, expand(at(envPlace, key), expectString(at(envPlace, key), value), context)];
    }),
  );
  if (entry.cwd === undefined) return { kind: "stdio", command, args, env };
  const cwdPlace = at(place, "cwd");
  const cwd = expand(cwdPlace, expectNonEmptyString(cwdPlace, entry.cwd), context);
  return { kind: "stdio", command, args, env, cwd: isAbsolute(cwd) ? cwd : resolve(context.baseDir, cwd) };
}

/** `${env:VAR}` replaced by the variable's value; an unset variable is an error naming it. */
function expand(place: Place, text: string, context: ExpandContext): string {
  return text.replace(/\$\{env:([^}]*)\}/g, (_, name: string) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw configError(place, `"\${env:${name}}" does not name an environment variable`);
    }
    const value = context.env[name];
    if (value !== undefined) return value;
    if (context.lenient) return "";
    throw configError(place, `environment variable "${name}" is not set; set it or remove "\${env:${name}}"`);
  });
}

function parseToolGlobs(place: Place, raw: unknown): ServerConfig["tools"] {
  if (raw === undefined) return { allow: [], deny: [] };
  const tools = expectObject(place, raw);
  refuseUnknownKeys(place, tools, ["allow", "deny"]);
  return {
    allow: tools.allow === undefined
      ? []
      : expectStrings(at(place, "allow"), tools.allow, { nonEmpty: true }),
    deny: tools.deny === undefined ? [] : expectStrings(at(place, "deny"), tools.deny, { nonEmpty: true }),
  };
}

function parseToolTimeouts(place: Place, raw: unknown): Record<string, number> {
  if (raw === undefined) return {};
  return Object.fromEntries(
    Object.entries(expectObject(place, raw)).map((
      [tool, seconds],
    ) => [tool, expectSeconds(at(place, tool), seconds)]),
  );
}

function parseDescriptions(place: Place, raw: unknown): Record<string, string> {
  if (raw === undefined) return {};
  return Object.fromEntries(
    Object.entries(expectObject(place, raw)).map((
      [tool, text],
    ) => [tool, expectString(at(place, tool), text)]),
  );
}
