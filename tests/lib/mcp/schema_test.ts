import assert from "node:assert/strict";
import {
  describeUnknownKeys,
  findUnknownKeys,
  type JsonSchema,
  portableSchema,
} from "../../../lib/mcp/schema.ts";

const EDIT: JsonSchema = portableSchema({
  type: "object",
  properties: {
    path: { type: "string" },
    dry_run: { type: "boolean" },
    edits: {
      type: "array",
      items: {
        type: "object",
        properties: { old_text: { type: "string" }, replace_all: { type: "boolean" } },
      },
    },
    paths: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
    env: { type: "object", additionalProperties: { type: "string" } },
  },
}, true);

Deno.test("portableSchema closes objects with properties and leaves open maps open", () => {
  assert.equal(EDIT.additionalProperties, false);
  assert.equal(EDIT.properties!.edits.items!.additionalProperties, false);
  assert.deepEqual(EDIT.properties!.env.additionalProperties, { type: "string" });
});

Deno.test("portableSchema spells a type list as anyOf, in input and output schemas", () => {
  const output = portableSchema(
    { type: "object", properties: { mtime: { type: ["string", "null"] } } },
    false,
  );
  assert.deepEqual(output.properties!.mtime, { anyOf: [{ type: "string" }, { type: "null" }] });
  assert.equal(output.additionalProperties, undefined);
});

Deno.test("findUnknownKeys names misspelt arguments with the closest known one", () => {
  for (const [key, suggestion] of [["dry-run", "dry_run"], ["dryRun", "dry_run"], ["DRY_RUN", "dry_run"]]) {
    const unknown = findUnknownKeys({ path: "a", [key]: true }, EDIT);
    assert.deepEqual(unknown.map((u) => [u.path, u.suggestion]), [[key, suggestion]]);
  }
  const [preview] = findUnknownKeys({ preview: true }, EDIT);
  assert.equal(preview.suggestion, undefined);
  assert.match(
    describeUnknownKeys([preview]),
    /^"preview": unknown argument; it takes path, dry_run, edits, paths, env$/,
  );
});

Deno.test("findUnknownKeys looks inside lists of objects, not into open maps or plain values", () => {
  const unknown = findUnknownKeys({
    edits: [{ old_text: "a" }, { old_text: "b", replaceAll: true }],
    env: { ANY_NAME: "x" },
    paths: ["a", "b"],
  }, EDIT);
  assert.deepEqual(unknown.map((u) => [u.path, u.suggestion]), [["edits.1.replaceAll", "replace_all"]]);
  assert.match(
    describeUnknownKeys(unknown),
    /"edits.1.replaceAll": unknown argument \(did you mean "replace_all"\?\)/,
  );
  assert.deepEqual(findUnknownKeys({ path: "a", dry_run: false }, EDIT), []);
});
