import assert from "node:assert/strict";
import { encode } from "gpt-tokenizer";
import { connect } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { createServer } from "../../../mcp/notes/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { listTokens } from "../../../tools/tokens.ts";
import { sampleNotes } from "./sample_notes.ts";

/** The notes server's share of the 2,500-token tools/list budget (+20 for closed schemas, issue 11). */
const NOTES_BUDGET = 320;
/** What one notes_list page may cost, as docs/servers/notes.md promises: about a thousand o200k tokens. */
const PAGE_TOKENS = 1_000;

Deno.test("tools/list fits the notes server's token budget and the text limits", async () => {
  await using c = await connect(createServer({ workspace: new Workspace({ cwd: Deno.cwd() }) }));
  const { tools } = await c.client.listTools();
  for (const tool of tools) {
    assert.ok(tool.description!.length <= 200, `${tool.name} description is too long`);
    for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
      const description = (property as { description?: string }).description ?? "";
      assert.ok(description.length <= 80, `${tool.name}.${name} description is too long`);
    }
  }
  const tokens = listTokens(tools);
  assert.ok(tokens <= NOTES_BUDGET, `tools/list costs ${tokens} tokens, over ${NOTES_BUDGET}`);
});

Deno.test("a notes_list page of 100 notes fits a thousand tokens; slug, title and date stay, pages cover all", async () => {
  await using ws = await tempWorkspace({ ".git/": "" });
  let clock = Date.UTC(2026, 0, 1);
  const now = () => new Date(clock += 7 * 3_600_000);
  await using c = await connect(createServer({ workspace: new Workspace({ cwd: ws.path }), now }));
  // Half the notes get a title of their own, longer than the slug, as an agent naming notes would.
  const titles = new Map<string, string>();
  for (const [i, note] of sampleNotes(100).entries()) {
    const slug = note.title!.toLowerCase().replace(" ", "-");
    const title = i % 2 ? `${note.title} on Windows and CI runners` : note.title!;
    titles.set(slug, title);
    assert.equal((await c.call("notes_write", { ...note, slug, title })).isError, undefined);
  }
  for (const query of [undefined, "detail"]) {
    const seen: string[] = [];
    while (seen.length < 100) {
      const page = await c.text("notes_list", { query, offset: seen.length });
      const tokens = encode(page).length;
      assert.ok(tokens <= PAGE_TOKENS, `a page (query ${query}) costs ${tokens} tokens, over ${PAGE_TOKENS}`);
      const lines = page.split("\n").filter((line) => /^[a-z0-9-]+( — | \(|$)/.test(line));
      const least = Math.min(40, 100 - seen.length);
      assert.ok(lines.length >= least, `a page (query ${query}) shows only ${lines.length} notes`);
      for (const line of lines) {
        const slug = line.split(" ")[0];
        if (titles.get(slug) !== note(slug)) {
          assert.ok(line.startsWith(`${slug} — ${titles.get(slug)}`), line);
        }
        if (query) assert.match(line, /, 2026-01-\d\d\)$/);
        seen.push(slug);
      }
      const end = seen.length;
      if (end < 100) {
        assert.match(
          page,
          new RegExp(`\\n\\[${end - lines.length + 1}-${end} of 100 shown; pass offset=${end} for more\\]$`),
        );
      }
    }
    assert.deepEqual([...seen].sort(), [...titles.keys()].sort());
  }
});

/** The title the sample gave a slug's note when it only repeats the slug. */
function note(slug: string): string {
  return slug[0].toUpperCase() + slug.slice(1).replace("-", " ");
}
