import assert from "node:assert/strict";
import { NoteStore } from "../../../mcp/notes/store.ts";
import { parseNote, serializeNote } from "../../../mcp/notes/front_matter.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { frontMatterOf, hasPyYaml, loadStrictYaml, NOT_YAML_TEXT } from "./strict_yaml.ts";

/** Values that are awkward for a YAML writer: control characters, line breaks, indicators, typed look. */
const AWKWARD = [
  "Bad\x1b[31m title\x00\x07",
  "tab\there",
  "line\nbreak\r\nand CR",
  "nel\x85ls\u2028ps\u2029",
  "del\x7f c1\x9b bom\ufeff nonchar\uffff",
  "Fix:",
  "a: b",
  "x #y",
  "- dash",
  "? question",
  "'single'",
  '"double"',
  "0x1F",
  "1:20",
  "1_000",
  ".inf",
  "-.5",
  "NULL",
  "~",
  "Yes",
  "trailing space ",
  "@at",
  "%percent",
  "[flow]",
  "{map}",
  "emoji 🚀 and 构建",
  "y",
  "=",
  "2026-01-02",
];

Deno.test({
  name: "every value serializeNote writes is read back unchanged by a strict YAML reader",
  ignore: !hasPyYaml,
  async fn() {
    const texts = AWKWARD.map((value) =>
      frontMatterOf(serializeNote({ title: value, summary: value, extra: [] }, "body"))
    );
    const loaded = await loadStrictYaml(texts);
    for (const [i, value] of AWKWARD.entries()) {
      assert.deepEqual(loaded[i], { value: { title: value, summary: value } }, texts[i]);
      assert.doesNotMatch(texts[i], NOT_YAML_TEXT, texts[i]);
    }
  },
});

Deno.test("control characters in a title or summary are cleaned; the file stays valid YAML", async () => {
  await using ws = await tempWorkspace();
  let tick = 0;
  const store = new NoteStore({
    locateRoot: () => Promise.resolve(ws.path),
    now: () => new Date(Date.UTC(2026, 0, 1) + 60_000 * tick++),
  });
  await store.write({
    slug: "n",
    title: "Bad\x1b[31m red\x1b[0m title\x00\x07 with\x85breaks\u2028and\ttabs",
    summary: "Sum\x1b]0;pwned\x07mary\x00.",
    body: "# Heading\x1b[2J\n\nBody.",
  });
  // A replace copying a front matter block whose extra keys carry control characters (JSON escapes).
  await store.write({
    slug: "m",
    body: '---\ntitle: "Copied\\u001b title"\nauthor: "a\\u0000b\\u0085c"\n# note\\u0007\n---\nBody.',
  });
  for (const slug of ["n", "m"]) {
    const file = await Deno.readTextFile(ws.join(`.continue-notes/${slug}.md`));
    assert.doesNotMatch(frontMatterOf(file), NOT_YAML_TEXT, file);
  }
  const n = await store.read("n");
  assert.equal(n.title, "Bad red title with breaks and tabs");
  assert.equal(n.summary, "Summary.");
  const m = parseNote(await Deno.readTextFile(ws.join(".continue-notes/m.md"))).front;
  assert.equal(m.title, "Copied title");
  if (!hasPyYaml) return;
  const loaded = await loadStrictYaml(
    await Promise.all(
      ["n", "m"].map(async (slug) =>
        frontMatterOf(await Deno.readTextFile(ws.join(`.continue-notes/${slug}.md`)))
      ),
    ),
  );
  assert.deepEqual(loaded.map((result) => "value" in result && (result.value as { title: string }).title), [
    "Bad red title with breaks and tabs",
    "Copied title",
  ]);
  assert.equal((loaded[1] as { value: { author: string } }).value.author, "ab c");
});
