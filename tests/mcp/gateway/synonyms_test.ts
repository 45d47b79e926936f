import assert from "node:assert/strict";
import { compileSynonyms, expandQuery, SYNONYMS } from "../../../mcp/gateway/synonyms.ts";
import { stem } from "../../../mcp/gateway/stem.ts";
import table from "../../../mcp/gateway/synonyms.json" with { type: "json" };

const groups = compileSynonyms([
  ["remove", "delete", "get rid of"],
  ["get", "fetch"],
  ["pr", "pull request", "merge request"],
]);

function alternatives(
  concept: readonly { words: readonly string[]; weight: number }[],
): Record<string, number> {
  return Object.fromEntries(concept.map(({ words, weight }) => [words.join(" "), weight]));
}

Deno.test("expandQuery gives each word its group's members at a lower weight", () => {
  const concepts = expandQuery(["delet", "the", "bucket"], groups);
  assert.equal(concepts.length, 2, "a stopword is no concept");
  assert.deepEqual(alternatives(concepts[0]), { delet: 1, remov: 0.5, "get rid": 0.5 });
  assert.deepEqual(alternatives(concepts[1]), { bucket: 1 });
});

Deno.test("expandQuery reads a multi-word phrase as one idea, and its words do not expand alone", () => {
  const concepts = expandQuery(["get", "rid", "of", "the", "bucket"], groups);
  assert.equal(concepts.length, 2, "get rid is one concept, bucket another");
  assert.deepEqual(alternatives(concepts[0]), { "get rid": 1, remov: 0.8, delet: 0.8 });
  assert.ok(!("fetch" in alternatives(concepts[0])), "get inside the phrase does not expand to fetch");
  assert.deepEqual(alternatives(expandQuery(["open", "pr"], groups)[1]), {
    pr: 1,
    "pull request": 0.5,
    [`${stem("merge")} ${stem("request")}`]: 0.5,
  });
});

Deno.test("expandQuery: an abbreviation and its expansion stand for each other at full weight", () => {
  const table = [...groups, ...compileSynonyms([["pr", "pull request"]], true)];
  assert.deepEqual(alternatives(expandQuery(["pr"], table)[0]), {
    pr: 1,
    "pull request": 1,
    [`${stem("merge")} ${stem("request")}`]: 0.5,
  });
  assert.deepEqual(alternatives(expandQuery(["pull", "request"], table)[0]), {
    "pull request": 1,
    pr: 1,
    [`${stem("merge")} ${stem("request")}`]: 0.8,
  });
});

Deno.test("the synonym table is well formed: 40+ groups, no empty or duplicate phrase in a group", () => {
  assert.ok(table.groups.length >= 40, `${table.groups.length} groups`);
  for (const { phrases } of SYNONYMS) {
    assert.ok(phrases.length >= 2, JSON.stringify(phrases));
    assert.ok(phrases.every((phrase) => phrase.length > 0), JSON.stringify(phrases));
    const keys = phrases.map((phrase) => phrase.join(" "));
    assert.equal(new Set(keys).size, keys.length, `duplicate in ${keys}`);
  }
  const ticket = SYNONYMS.find(({ phrases }) => phrases.some((phrase) => phrase[0] === stem("ticket")));
  assert.ok(ticket?.phrases.some((phrase) => phrase[0] === stem("issue")), "ticket and issue share a group");
});

// "add a column", "file a bug": the table writes its phrases without articles, and a query puts one in.
Deno.test("expandQuery matches a phrase with an article between its words", () => {
  const table = compileSynonyms([["migration", "add column"], ["remove", "get rid of"]]);
  const concepts = expandQuery(["add", "a", "column", "to", "user"], table);
  assert.deepEqual(alternatives(concepts[0]), { "add column": 1, migrat: 0.8 });
  assert.equal(concepts.length, 2, "the phrase, then user");
  assert.deepEqual(
    alternatives(expandQuery(["add", "a", "a", "column"], table)[0]),
    { add: 1 },
    "one article",
  );
});
