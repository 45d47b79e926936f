/**
 * The names the gateway shows: `<server>__<tool>`, each part normalised to `[a-zA-Z0-9_-]` so that every
 * client accepts it (OpenAI-style function names allow nothing else), at most 64 characters, unique.
 * @module
 */
import { capQuote } from "../../lib/text/cap.ts";

/** The longest name clients accept for a tool. */
export const MAX_NAME_LENGTH = 64;
/** Between the server's prefix and the tool's name. */
export const SEPARATOR = "__";

const HASH_LENGTH = 8;
/** Characters of a tool name a collision line quotes. */
const QUOTED_NAME_CHARS = 100;

/** `name` with every character outside `[a-zA-Z0-9_-]` replaced by `_`. */
export function normaliseName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/gu, "_");
}

/** The server's part of its tools' names. */
export function prefixOf(serverName: string): string {
  return normaliseName(serverName);
}

/**
 * `<prefix>__<tool>`, normalised; past 64 characters, its first 55 plus `_` and 8 hex digits of a hash of
 * the whole name, so two long names sharing a beginning stay apart and stay the same from run to run.
 */
export function qualifiedName(prefix: string, tool: string): string {
  const full = `${prefix}${SEPARATOR}${normaliseName(tool)}`;
  return full.length <= MAX_NAME_LENGTH ? full : withHash(full, full);
}

/** One downstream tool to name. */
export interface NameEntry {
  /** The config name of its server. */
  server: string;
  /** `prefixOf(server)`. */
  prefix: string;
  /** The tool's name downstream. */
  tool: string;
}

/** The key of a (server, tool) pair in `assignNames`'s map. */
export function toolKey(server: string, tool: string): string {
  return JSON.stringify([server, tool]);
}

/** Qualified names by `toolKey`, and one line per name two different tools wanted. */
export interface AssignedNames {
  names: Map<string, string>;
  collisions: string[];
}

/**
 * Names every entry. A tool whose server and tool names are valid as they are claims its name first, so a
 * `read.file` listed before it never takes `read_file` from `read_file`; among equals the first in `entries`
 * (pass them in config order, then in the server's order) keeps it. Every other pair that wanted a name
 * already taken gets a hash suffix; the collision is reported, never fatal.
 */
export function assignNames(entries: readonly NameEntry[]): AssignedNames {
  const names = new Map<string, string>();
  const owners = new Map<string, NameEntry>();
  const losers: { key: string; entry: NameEntry; wanted: string }[] = [];
  // One (server, tool) listed twice is one tool.
  const unique = [...new Map(entries.map((entry) => [toolKey(entry.server, entry.tool), entry])).values()];
  const exact = (entry: NameEntry) =>
    entry.prefix === entry.server && normaliseName(entry.tool) === entry.tool;
  for (const entry of [...unique.filter(exact), ...unique.filter((entry) => !exact(entry))]) {
    const key = toolKey(entry.server, entry.tool);
    const wanted = qualifiedName(entry.prefix, entry.tool);
    if (owners.has(wanted)) {
      losers.push({ key, entry, wanted });
    } else {
      owners.set(wanted, entry);
      names.set(key, wanted);
    }
  }
  // Every natural name is claimed before any suffixed one, so a suffix never takes a tool's own name.
  const collisions: string[] = [];
  for (const { key, entry, wanted } of losers) {
    let attempt = 0;
    let name = withHash(wanted, key);
    while (owners.has(name)) name = withHash(wanted, `${key}#${++attempt}`);
    owners.set(name, entry);
    names.set(key, name);
    const first = owners.get(wanted)!;
    // A server names its tools: a collision line quotes them short (the log keeps each line once).
    const tool = (entry: NameEntry) => `"${capQuote(entry.tool, QUOTED_NAME_CHARS)}"`;
    collisions.push(
      `"${first.server}" tool ${tool(first)} and "${entry.server}" tool ${tool(entry)} both become ` +
        `"${wanted}"; ${tool(entry)} is named "${name}"`,
    );
  }
  return { names, collisions };
}

/** `base` cut to make room for `_` and 8 hex digits of `seed`'s hash. */
function withHash(base: string, seed: string): string {
  const room = MAX_NAME_LENGTH - HASH_LENGTH - 1;
  return `${base.slice(0, room)}_${fnv1a(seed)}`;
}

/** FNV-1a, 32 bits, over the UTF-8 bytes, as 8 hex digits: short, stable and needs no async crypto. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(HASH_LENGTH, "0");
}
