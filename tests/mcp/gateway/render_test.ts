import assert from "node:assert/strict";
import { hitLine, oneLine } from "../../../mcp/gateway/render.ts";

Deno.test("oneLine: the first sentence, on one line, cut to a search line", () => {
  assert.equal(oneLine("List issues.\nFilter by label."), "List issues.");
  assert.equal(oneLine("Uses v1.2 of the API"), "Uses v1.2 of the API");
  assert.equal(oneLine(`${"word ".repeat(40)}end.`), `${"word ".repeat(22).trimEnd()}…`);
});

// A server sends the description; each search line used to flatten all of it (50 lines of 1 MB: 1.5 s).
Deno.test("hitLine: a megabyte description gives the line its start would", () => {
  const long = `Forecast for a city. ${"More words. ".repeat(100_000)}`;
  const tool = { qualifiedName: "w__get", server: "w", name: "get", description: long, inputSchema: {} };
  assert.equal(hitLine(tool), "w__get — Forecast for a city.");
  const words = { ...tool, description: "word ".repeat(200_000) };
  assert.equal(hitLine(words), `w__get — ${"word ".repeat(22).trimEnd()}…`);
});
