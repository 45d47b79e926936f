import assert from "node:assert/strict";
import { type Rankable, rankNotes, scoreNote, searchWords, words } from "../../../mcp/notes/rank.ts";

function note(slug: string, fields: Partial<Rankable> = {}): Rankable {
  return { slug, title: "", summary: "", tags: [], body: "", updatedMs: 0, ...fields };
}

Deno.test("words folds case and accents and splits on punctuation", () => {
  assert.deepEqual(words("Déjà-vu, 2x! deno_task"), ["deja", "vu", "2x", "deno", "task"]);
});

Deno.test("a title match beats a tag match beats a summary match beats a body match", () => {
  const notes = [
    note("in-body", { body: "how we deploy to prod", updatedMs: 4 }),
    note("in-summary", { summary: "Deploy steps", updatedMs: 3 }),
    note("in-tags", { tags: ["deploy"], updatedMs: 2 }),
    note("in-title", { title: "Deploying", updatedMs: 1 }),
    note("unrelated", { title: "Lint rules", updatedMs: 5 }),
  ];
  assert.deepEqual(rankNotes(notes, "deploy").map((n) => n.slug), [
    "in-title",
    "in-tags",
    "in-summary",
    "in-body",
  ]);
});

Deno.test("matching more query words ranks higher; the slug counts as title", () => {
  const notes = [
    note("ci-cache", { body: "ci runs", updatedMs: 9 }),
    note("misc", { body: "the ci cache is flaky on windows" }),
  ];
  assert.equal(scoreNote(notes[0], ["ci", "cache"]), 16);
  assert.deepEqual(rankNotes(notes, "windows ci cache").map((n) => n.slug), ["ci-cache", "misc"]);
  assert.equal(scoreNote(notes[1], ["windows", "ci", "cache"]), 3);
});

Deno.test("ties go to the newer note, and an empty query lists everything newest first", () => {
  const notes = [note("old", { body: "x", updatedMs: 1 }), note("new", { body: "x", updatedMs: 2 })];
  assert.deepEqual(rankNotes(notes, "x").map((n) => n.slug), ["new", "old"]);
  assert.deepEqual(rankNotes(notes, " ,. ").map((n) => n.slug), ["new", "old"]);
  assert.deepEqual(rankNotes(notes, "nothing").map((n) => n.slug), []);
});

Deno.test("common words in a query do not rank: the, and, of ... neither score nor prefix-match", () => {
  const notes = [
    note("then-and-there", { title: "Then and there", body: "deploy later", updatedMs: 2 }),
    note("deploy", { title: "Deploy", updatedMs: 1 }),
    note("theme", { title: "Theme of the site", updatedMs: 3 }),
  ];
  assert.deepEqual(rankNotes(notes, "the deploy").map((n) => n.slug), ["deploy", "then-and-there"]);
  assert.deepEqual(rankNotes(notes, "how to deploy").map((n) => n.slug), ["deploy", "then-and-there"]);
  assert.deepEqual(rankNotes(notes, "The and of"), []);
  assert.deepEqual(searchWords("How do I deploy to the CI?"), ["deploy", "ci"]);
});

Deno.test("symbols that carry meaning survive in queries and notes: c++, c#, f#, .net, node.js", () => {
  const notes = [
    note("cpp-build", { title: "C++ build flags", body: "Use -O2.", updatedMs: 1 }),
    note("abi", { title: "ABI notes", summary: "The C++ ABI breaks between compilers.", updatedMs: 2 }),
    note("csharp", { title: "C# nullable", body: "Enable <Nullable>.", updatedMs: 3 }),
    note("c-macros", { title: "C macros", body: "The C preprocessor.", updatedMs: 4 }),
    note("fsharp", { title: "F# pipelines", tags: ["f#"], updatedMs: 5 }),
    note("dotnet", { title: "Dependency injection", body: "In .NET and ASP.NET Core.", updatedMs: 6 }),
    note("streams", { title: "Streams", body: "Node.js streams and deno.json tasks.", updatedMs: 7 }),
  ];
  const found = (query: string) => rankNotes(notes, query).map((n) => n.slug);
  assert.deepEqual(found("c++"), ["cpp-build", "abi"]);
  assert.deepEqual(found("C#"), ["csharp"]);
  assert.deepEqual(found("f#"), ["fsharp"]);
  assert.deepEqual(found(".net"), ["dotnet"]);
  assert.deepEqual(found("asp.net"), ["dotnet"]);
  assert.deepEqual(found("node.js"), ["streams"]);
  // The parts of a term still find it: `node`, `js`, `json` as before.
  assert.deepEqual(found("node"), ["streams"]);
  assert.deepEqual(found("json"), ["streams"]);
  assert.deepEqual(found("net"), ["dotnet"]);
  assert.deepEqual(searchWords("How do I use C++ and node.js?"), ["use", "c++", "node.js"]);
});
