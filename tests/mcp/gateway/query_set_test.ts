import assert from "node:assert/strict";
import { tempWorkspace } from "../../_support/workspace.ts";
import { BLIND_SET_DIR, DEV_SET_DIR, loadQuerySet } from "./fixture/query_set.ts";

Deno.test("the dev set is a second catalog with agent queries, hard ones and ones no tool answers", () => {
  const { tools, queries } = loadQuerySet(DEV_SET_DIR);
  assert.ok(tools.length >= 150 && new Set(tools.map((t) => t.server)).size >= 15, "catalog size");
  assert.ok(queries.length >= 60, "query count");
  assert.ok(queries.filter((q) => q.hard).length >= 8, "hard queries");
  assert.ok(queries.filter((q) => q.expected.length === 0).length >= 3, "queries with no right tool");
  assert.equal(new Set(tools.map((t) => t.qualifiedName)).size, tools.length, "names are unique");
});

Deno.test("the blind set is a third catalog, its queries written after the ranker changed", () => {
  const { tools, queries } = loadQuerySet(BLIND_SET_DIR);
  assert.ok(tools.length >= 100 && queries.length >= 50, "size");
  assert.ok(queries.filter((q) => q.hard).length >= 8 && queries.some((q) => q.expected.length === 0));
});

Deno.test("loadQuerySet refuses a set whose queries expect a tool the catalog lacks, naming it", async () => {
  await using dir = await tempWorkspace({
    "catalog.json": '{"servers":{"a":{"tools":[{"name":"x"}]}}}',
    "queries.json": '[{"query":"q","expected":["a__y"]}]',
  });
  assert.throws(() => loadQuerySet(dir.path), /expects "a__y", not in catalog\.json/);
  await Deno.writeTextFile(dir.join("queries.json"), '{"query":"q"}');
  assert.throws(() => loadQuerySet(dir.path), /queries\.json is not an array/);
  await Deno.writeTextFile(dir.join("catalog.json"), '{"tools":[]}');
  assert.throws(() => loadQuerySet(dir.path), /catalog\.json has no `servers` object/);
  await Deno.remove(dir.join("catalog.json"));
  assert.throws(() => loadQuerySet(dir.path), /Cannot read the query set in .*catalog\.json/);
});
