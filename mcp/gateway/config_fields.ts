/**
 * The checks a config value goes through, each failing with a `ConfigError` that names the file, the
 * path of the key (`mcpServers.github.timeout_s`) and what was expected.
 * @module
 */
import { closestName } from "../../lib/text/distance.ts";

/** A config file that cannot be used; the message starts with the file and the key at fault. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Where a value sits: the file as the user named it and the keys leading to it. */
export interface Place {
  file: string;
  path: readonly string[];
}

/** `mcpServers.github.args[1]`; a key that is not a plain word is quoted: `mcpServers["my server"]`. */
export function formatPath(path: readonly string[]): string {
  return path.map((key, index) => {
    if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key)) return index === 0 ? key : `.${key}`;
    return /^(0|[1-9][0-9]*)$/.test(key) ? `[${key}]` : `[${JSON.stringify(key)}]`;
  }).join("");
}

/** A `ConfigError` at `place`. */
export function configError(place: Place, message: string): ConfigError {
  const where = place.path.length > 0 ? `${formatPath(place.path)}: ` : "";
  return new ConfigError(`${place.file}: ${where}${message}`);
}

/** `place` one key deeper. */
export function at(place: Place, key: string): Place {
  return { file: place.file, path: [...place.path, key] };
}

/** The value as a message shows it: strings quoted, containers by kind. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") {
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  }
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return String(value);
}

/** Throws when `value` is not a plain object; returns it typed. */
export function expectObject(place: Place, value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw configError(place, `expected an object, got ${describeValue(value)}`);
  }
  return value as Record<string, unknown>;
}

export function expectString(place: Place, value: unknown): string {
  if (typeof value !== "string") throw configError(place, `expected a string, got ${describeValue(value)}`);
  return value;
}

export function expectNonEmptyString(place: Place, value: unknown): string {
  const text = expectString(place, value);
  if (text === "") throw configError(place, 'expected a non-empty string, got ""');
  return text;
}

export function expectBoolean(place: Place, value: unknown): boolean {
  if (typeof value !== "boolean") {
    throw configError(place, `expected true or false, got ${describeValue(value)}`);
  }
  return value;
}

/** A positive number of seconds, as milliseconds. */
export function expectSeconds(place: Place, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw configError(place, `expected a positive number, got ${describeValue(value)}`);
  }
  return Math.max(1, Math.round(value * 1000));
}

/** An array of strings; `nonEmpty` refuses `""` items. */
export function expectStrings(place: Place, value: unknown, { nonEmpty = false } = {}): string[] {
  if (!Array.isArray(value)) {
    throw configError(place, `expected an array of strings, got ${describeValue(value)}`);
  }
  return value.map((item, index) =>
    nonEmpty
      ? expectNonEmptyString(at(place, String(index)), item)
      : expectString(at(place, String(index)), item)
  );
}

/** Throws at the first key of `object` not in `known`, with the closest known key when one is near. */
export function refuseUnknownKeys(
  place: Place,
  object: Record<string, unknown>,
  known: readonly string[],
): void {
  for (const key of Object.keys(object)) {
    if (known.includes(key)) continue;
    const suggestion = closestName(key, known);
    const hint = suggestion ? ` (did you mean "${suggestion}"?)` : "";
    throw configError(at(place, key), `unknown key${hint}; the keys here are ${known.join(", ")}`);
  }
}

/** Same rule as the tools' unknown-argument check: case, `-`/`_` and camelCase first, then a third may differ. */
