import assert from "node:assert/strict";
import { encode } from "gpt-tokenizer";
import { parseNote } from "../../../mcp/notes/front_matter.ts";

const RULES = new URL("../../../continue/rules/", import.meta.url);

/** Continue's rule front matter: `name` is required, the rest decides when the rule applies. */
function ruleFront(text: string): Record<string, string> {
  const { front, hasFrontMatter } = parseNote(text);
  assert.ok(hasFrontMatter);
  return Object.fromEntries(front.extra.map((line) => line.split(/:\s*(.*)/s).slice(0, 2)));
}

Deno.test("the notes rule always applies and stays short: it is sent with every request", async () => {
  const text = await Deno.readTextFile(new URL("notes.md", RULES));
  const front = ruleFront(text);
  assert.equal(front.alwaysApply, "true");
  assert.ok(front.name && front.description);
  for (const tool of ["notes_list", "notes_read", "notes_write"]) assert.match(text, new RegExp(tool));
  const tokens = encode(parseNote(text).body).length;
  assert.ok(tokens <= 200, `notes.md costs ${tokens} tokens on every request`);
});

Deno.test("the rule on rules applies to rule files only and covers promoting a note", async () => {
  const text = await Deno.readTextFile(new URL("rule-rule.md", RULES));
  const front = ruleFront(text);
  assert.equal(front.alwaysApply, "false");
  assert.equal(front.globs, '".continue/rules/**"');
  assert.ok(front.name && front.description);
  assert.match(text, /Promote a note to a rule only when/);
  assert.ok(encode(parseNote(text).body).length <= 250);
});
