import assert from "node:assert/strict";
import { normalizeTags, parseNote, serializeNote } from "../../../mcp/notes/front_matter.ts";
import { clip, firstHeading, firstSentence } from "../../../mcp/notes/derive.ts";

Deno.test("serialize then parse round-trips every field, awkward values included", () => {
  const front = {
    title: 'Fix: "quotes" #1 and: colons',
    summary: "true",
    tags: ["build", "c++"],
    created: "2026-01-02T03:04:05.006Z",
    updated: "2026-01-03T03:04:05.006Z",
    extra: ["author: bob"],
  };
  const text = serializeNote(front, "\n\nBody line.\n");
  assert.equal(
    text,
    [
      "---",
      'title: "Fix: \\"quotes\\" #1 and: colons"',
      'summary: "true"',
      "tags: [build, c++]",
      "created: 2026-01-02T03:04:05.006Z",
      "updated: 2026-01-03T03:04:05.006Z",
      "author: bob",
      "---",
      "",
      "Body line.",
      "",
    ].join("\n"),
  );
  const parsed = parseNote(text);
  assert.deepEqual(parsed.front, front);
  assert.equal(parsed.body, "Body line.\n");
  assert.equal(serializeNote(parsed.front, parsed.body), text);
});

Deno.test("plain values stay plain; typed-looking and special values are quoted", () => {
  const text = serializeNote({
    title: "Build commands, in order",
    summary: "- starts with a dash",
    extra: [],
  }, "");
  assert.match(text, /^title: Build commands, in order$/m);
  assert.match(text, /^summary: "- starts with a dash"$/m);
  assert.equal(serializeNote({ title: "2024", extra: [] }, "").split("\n")[1], 'title: "2024"');
});

Deno.test("a file without front matter is all body", () => {
  const parsed = parseNote("# Heading\n\ntext");
  assert.equal(parsed.hasFrontMatter, false);
  assert.equal(parsed.body, "# Heading\n\ntext");
  assert.deepEqual(parsed.front, { extra: [] });
});

Deno.test("hand-written YAML variants: single quotes, block lists, bare comma lists, CRLF, BOM, comments", () => {
  const text = "\uFEFF---\r\ntitle: 'It''s here' # a comment\r\ntags:\r\n  - One\r\n  - two words\r\n" +
    "summary: plain: text\r\n---\r\nbody\r\n";
  const parsed = parseNote(text);
  assert.equal(parsed.front.title, "It's here");
  assert.deepEqual(parsed.front.tags, ["one", "two-words"]);
  assert.equal(parsed.front.summary, "plain: text");
  assert.equal(parsed.body, "body\n");
  assert.deepEqual(parseNote("---\ntags: a, B ,a\n---\n").front.tags, ["a", "b"]);
});

Deno.test("hand-broken front matter never throws and keeps what it cannot read", () => {
  const broken = [
    "---",
    "---\n",
    '---\ntitle: "unterminated\n---\nbody',
    "---\n: no key\n!!garbage [\ntitle: Kept\n---\nbody",
    "---\ntags: [a, b\n---\n",
    "---\ntitle:\n---\n",
    "---\ntitle: Missing end\nsummary: s\n\n# Heading\nbody",
    "\0\0binary---",
  ];
  for (const text of broken) parseNote(text);
  const garbage = parseNote("---\n: no key\n!!garbage [\ntitle: Kept\n---\nbody");
  assert.equal(garbage.front.title, "Kept");
  assert.deepEqual(garbage.front.extra, [": no key", "!!garbage ["]);
  assert.equal(parseNote('---\ntitle: "unterminated\n---\n').front.title, '"unterminated');
  assert.deepEqual(parseNote("---\ntags: [a, b\n---\n").front.tags, ["a", "b"]);
  assert.equal(parseNote("---\ntitle:\n---\n").front.title, undefined);
  const unclosed = parseNote("---\ntitle: Missing end\nsummary: s\n\n# Heading\nbody");
  assert.equal(unclosed.front.title, "Missing end");
  assert.equal(unclosed.body, "# Heading\nbody");
});

Deno.test("tags are normalised: lowercase, hyphens for spaces, no punctuation, no repeats", () => {
  assert.deepEqual(normalizeTags([" Build ", "build", "Two Words", "a,b", "[x]", "", "-lead", "ünï"]), [
    "build",
    "two-words",
    "ab",
    "x",
    "lead",
    "ünï",
  ]);
});

Deno.test("derived titles and summaries skip code, headings and markup", () => {
  const body = "```\n# not a heading\n```\n## Real **title**\n\nFirst [link](http://x) sentence. Second one.";
  assert.equal(firstHeading(body), "Real title");
  assert.equal(firstSentence(body), "First link sentence.");
  assert.equal(firstSentence("- item one\n- item two"), "item one item two");
  assert.equal(firstSentence("# only a heading"), undefined);
  assert.equal(clip("word ".repeat(50), 20), "word word word word…");
});

Deno.test("a front matter missing its closing --- does not swallow the body up to a later --- rule", () => {
  const unclosed = parseNote("---\ntitle: My note\n\n# Heading\n\nA paragraph.\n\n---\n\nMore.\n");
  assert.deepEqual(unclosed.front, { title: "My note", extra: [] });
  assert.equal(unclosed.body, "# Heading\n\nA paragraph.\n\n---\n\nMore.\n");
  assert.equal(parseNote("---\ntitle: T\n\n# Heading only\n\n---\nrest").body, "# Heading only\n\n---\nrest");
  const rule = "---\n\nIntro paragraph.\n\n---\nMore";
  assert.deepEqual(parseNote(rule), { front: { extra: [] }, body: rule, hasFrontMatter: false });
  const unknownOnly = "---\nNote: careful here\n\nText.";
  assert.equal(parseNote(unknownOnly).body, unknownOnly);
  // Blank lines, comments and lists that YAML reads are still front matter.
  const spaced = parseNote("---\ntitle: T\n\n# who\nauthor: bob\ntags:\n  - a\n---\nbody");
  assert.deepEqual(spaced.front, { title: "T", tags: ["a"], extra: ["", "# who", "author: bob"] });
  assert.equal(spaced.body, "body");
});
