/** Lenient argument repair before validation, and validation issues as one readable sentence. */
import type { z } from "zod";
import type { JsonSchema } from "./schema.ts";

/**
 * Models often send `"50"` for a number, `"true"` for a boolean, or a JSON-encoded array as a string; CLI
 * clients send what a user typed as a string (`text=123`) as a number or boolean (MCP Inspector 2.x,
 * mcporter). Repairs those top-level values (and the items of a list of strings) when the schema leaves no
 * doubt; everything else is left to validation. The published schema is not changed.
 */
export function coerceArguments(args: unknown, schema: JsonSchema): unknown {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
  const out: Record<string, unknown> = { ...args as Record<string, unknown> };
  for (const [key, value] of Object.entries(out)) {
    const property = schema.properties?.[key];
    if (property === undefined) continue;
    if (typeof value !== "string") {
      out[key] = typedAsText(value, property);
      continue;
    }
    const types = acceptedTypes(property);
    if (types.has("string")) continue;
    const trimmed = value.trim();
    if ((types.has("number") || types.has("integer")) && /^-?\d+(\.\d+)?$/.test(trimmed)) {
      out[key] = Number(trimmed);
    } else if (types.has("boolean") && (trimmed === "true" || trimmed === "false")) {
      out[key] = trimmed === "true";
    } else if ((types.has("array") || types.has("object")) && /^[[{]/.test(trimmed)) {
      try {
        out[key] = JSON.parse(trimmed);
      } catch {
        // Not JSON after all: validation reports the original value.
      }
    }
  }
  return out;
}

/** A number or boolean where only text is accepted becomes its text, in a list of strings too. */
function typedAsText(value: unknown, schema: JsonSchema): unknown {
  const types = acceptedTypes(schema);
  if (isScalar(value) && types.has("string") && !types.has(typeof value) && !acceptsNumber(types, value)) {
    return String(value);
  }
  if (Array.isArray(value) && types.has("array")) {
    const items = branchItems(schema);
    if (items.length !== 1) return value;
    const itemTypes = acceptedTypes(items[0]);
    if (!itemTypes.has("string")) return value;
    return value.map((item) =>
      isScalar(item) && !itemTypes.has(typeof item) && !acceptsNumber(itemTypes, item) ? String(item) : item
    );
  }
  return value;
}

function isScalar(value: unknown): value is number | boolean {
  return typeof value === "number" || typeof value === "boolean";
}

/** JSON Schema's `integer` accepts a whole number too. */
function acceptsNumber(types: Set<string>, value: unknown): boolean {
  return typeof value === "number" && types.has("integer") && Number.isInteger(value);
}

function branchItems(schema: JsonSchema): JsonSchema[] {
  const items: JsonSchema[] = schema.items ? [schema.items] : [];
  return [...items, ...(schema.anyOf ?? []).flatMap(branchItems)];
}

function acceptedTypes(schema: JsonSchema): Set<string> {
  const types = new Set<string>();
  const add = (s: JsonSchema) => {
    if (typeof s.type === "string") types.add(s.type);
    else if (Array.isArray(s.type)) s.type.forEach((t) => types.add(t));
    s.anyOf?.forEach(add);
  };
  add(schema);
  return types;
}

/** `"text": missing (expected string); "limit": too big: expected number to be <=50` */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.slice(0, 5).map((issue) => {
    const where = issue.path.length ? `"${issue.path.join(".")}"` : "arguments";
    return `${where}: ${describeIssue(issue)}`;
  }).join("; ");
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_union" && issue.errors.length) {
    const firsts = issue.errors.map((branch) => branch[0]).filter((first) => first !== undefined);
    // A branch whose type fitted failed on a constraint (e.g. too many items): that is the real reason.
    const fitted = firsts.filter((first) => first.code !== "invalid_type");
    if (fitted.length) return [...new Set(fitted.map(describeIssue))].join(" or ");
    const expected = [...new Set(firsts.map((first) => (first as { expected?: string }).expected ?? "?"))];
    return describeType(expected.join(" or "), issue.input);
  }
  if (issue.code === "invalid_type") return describeType(issue.expected, issue.input);
  if (issue.code === "unrecognized_keys") return issue.message;
  return issue.message.replace(/^Invalid input: /, "").replace(/^./, (c) => c.toLowerCase());
}

function describeType(expected: string, input: unknown): string {
  if (input === undefined) return `missing (expected ${expected})`;
  const received = input === null ? "null" : Array.isArray(input) ? "array" : typeof input;
  return `expected ${expected}, received ${received}`;
}
