import assert from "node:assert/strict";
import { formatIndex } from "../../../mcp/notes/listing.ts";
import { interpret } from "../../../mcp/notes/note_file.ts";

const note = (slug: string, text: string) =>
  interpret({ slug, path: `/n/${slug}.md`, text, size: text.length, mtime: new Date(Date.UTC(2026, 0, 1)) });

Deno.test("a query of only common words matches nothing and says why", () => {
  const listing = {
    notes: [note("theme", "The theme of the site."), note("deploy", "Deploy then test.")],
    skipped: [],
  };
  assert.equal(
    formatIndex(listing, { query: "the of", folder: ".continue-notes/" }),
    'No notes match "the of" (of 2): common words like these are not searched; use a more specific word',
  );
  assert.equal(
    formatIndex(listing, { query: "the deploy", folder: ".continue-notes/" }),
    '1 of 2 notes match "the deploy", best first:\ndeploy — Deploy then test. (2026-01-01)',
  );
});
