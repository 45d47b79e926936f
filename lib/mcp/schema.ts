/**
 * Tool schemas as clients see them, and the argument check zod cannot give from them: unknown names.
 * A misspelt `dry_run` must refuse the call, never be dropped while the tool writes.
 * @module
 */
import { closestName } from "../text/distance.ts";

/** The subset of JSON Schema our flat tool schemas use. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
}

/**
 * Spells nullable types as `anyOf` (a `type` array is a portability warning in the MCP Inspector) and,
 * with `close`, closes every object that lists its properties (`additionalProperties: false`).
 */
export function portableSchema(schema: JsonSchema, close: boolean): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (Array.isArray(out.type)) {
    const types = out.type;
    delete out.type;
    out.anyOf = types.map((type) => ({ type }));
  }
  if (out.properties) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties).map(([key, value]) => [key, portableSchema(value, close)]),
    );
    if (close) out.additionalProperties ??= false;
  }
  if (out.items) out.items = portableSchema(out.items, close);
  if (out.anyOf) out.anyOf = out.anyOf.map((branch) => portableSchema(branch, close));
  return out;
}

/** An argument name the schema does not know, where it was found, and the closest known name. */
export interface UnknownKey {
  /** `dry-run`, or `edits.0.replaceAll` inside a list of objects. */
  path: string;
  known: string[];
  suggestion?: string;
}

/** Every key of `value` that no object in `schema` declares, found through arrays and `anyOf`. */
export function findUnknownKeys(value: unknown, schema: JsonSchema, path: string[] = []): UnknownKey[] {
  if (Array.isArray(value)) {
    const items = branches(schema).map((branch) => branch.items).filter((items) => items !== undefined);
    if (items.length !== 1) return [];
    return value.flatMap((item, index) => findUnknownKeys(item, items[0], [...path, String(index)]));
  }
  if (typeof value !== "object" || value === null) return [];
  const objects = branches(schema).filter((branch) => branch.properties !== undefined);
  // An open map (e.g. `env`) or an unexpected shape: validation speaks for it.
  if (objects.length !== 1 || objects[0].additionalProperties !== false) return [];
  const properties = objects[0].properties!;
  const known = Object.keys(properties);
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) =>
    Object.hasOwn(properties, key)
      ? findUnknownKeys(inner, properties[key], [...path, key])
      : [{ path: [...path, key].join("."), known, suggestion: closestName(key, known) }]
  );
}

/** `"dry-run": unknown argument (did you mean "dry_run"?)` for each, then the names the tool takes. */
export function describeUnknownKeys(unknown: readonly UnknownKey[]): string {
  const each = unknown.slice(0, 5).map(({ path, suggestion }) =>
    `"${path}": unknown argument${suggestion ? ` (did you mean "${suggestion}"?)` : ""}`
  );
  const more = unknown.length > 5 ? `; ${unknown.length - 5} more` : "";
  return `${each.join("; ")}${more}; it takes ${unknown[0].known.join(", ")}`;
}

function branches(schema: JsonSchema): JsonSchema[] {
  return schema.anyOf ? schema.anyOf.flatMap(branches) : [schema];
}
