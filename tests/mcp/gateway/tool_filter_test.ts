import assert from "node:assert/strict";
import { globMatches, toolDescription, toolVisible } from "../../../mcp/gateway/tool_filter.ts";
import { evalFinishes, moduleUrl } from "../../_support/finishes.ts";

Deno.test("tool filter: * matches any run, ? one character, the rest literally, over the whole name", () => {
  assert.ok(globMatches("list_*", "list_issues"));
  assert.ok(globMatches("list_*", "list_"));
  assert.ok(globMatches("get_?", "get_a"));
  assert.ok(!globMatches("get_?", "get_ab"));
  assert.ok(!globMatches("list", "list_issues"), "anchored at both ends");
  assert.ok(globMatches("a.b+c(d)[e]", "a.b+c(d)[e]"));
  assert.ok(!globMatches("a.b", "axb"), "a dot is literal");
  assert.ok(!globMatches("List_*", "list_issues"), "case matters");
  assert.ok(globMatches("?", "😀"), "? is one character, not one UTF-16 unit");
});

Deno.test("tool filter: shown when allow is empty or matches, and no deny matches; deny wins", () => {
  const config = (allow: string[], deny: string[]) => ({ tools: { allow, deny } });
  assert.ok(toolVisible(config([], []), "anything"));
  assert.ok(toolVisible(config(["list_*"], []), "list_issues"));
  assert.ok(!toolVisible(config(["list_*"], []), "create_issue"));
  assert.ok(!toolVisible(config([], ["delete_*"]), "delete_repo"));
  assert.ok(!toolVisible(config(["*"], ["delete_*"]), "delete_repo"));
  assert.ok(toolVisible(config(["*"], ["delete_*"]), "get_repo"));
});

Deno.test("tool filter: a description override replaces the server's own, even with an empty string", () => {
  const config = { descriptions: { search_code: "Search code by keyword", quiet: "" } };
  assert.equal(
    toolDescription(config, { name: "search_code", description: "long..." }),
    "Search code by keyword",
  );
  assert.equal(toolDescription(config, { name: "quiet", description: "own" }), "");
  assert.equal(toolDescription(config, { name: "other", description: "own" }), "own");
  assert.equal(toolDescription(config, { name: "other" }), undefined);
  assert.equal(toolDescription(config, { name: "toString", description: "own" }), "own", "no prototype keys");
});

/** globMatches as it was: the glob turned into a regular expression (polynomial over a long name). */
function globByRegExp(glob: string, name: string): boolean {
  const source = Array.from(
    glob,
    (char) =>
      char === "*" ? "[\\s\\S]*" : char === "?" ? "[\\s\\S]" : char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"),
  ).join("");
  return new RegExp(`^${source}$`, "u").test(name);
}

Deno.test("tool filter: every short glob and name match as the regular expression it replaced did", () => {
  const globChars = ["a", "b", "*", "?", ".", "😀", "\n"];
  const nameChars = ["a", "b", ".", "😀", "\n", "*", "?"];
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const text = (chars: string[], max: number) =>
    Array.from({ length: Math.floor(next() * max) }, () => chars[Math.floor(next() * chars.length)]).join("");
  for (let round = 0; round < 20_000; round++) {
    const glob = text(globChars, 7);
    const name = text(nameChars, 8);
    assert.equal(globMatches(glob, name), globByRegExp(glob, name), JSON.stringify([glob, name]));
  }
});

// `^[\s\S]*a[\s\S]*a[\s\S]*b$` over 100 KB of `a` took 29 s (a downstream chooses its tool names). The
// child is killed after 20 s (evalFinishes); the scan takes milliseconds.
Deno.test("tool filter: a glob with several stars over a 1 MB tool name finishes", async () => {
  const filter = moduleUrl("mcp/gateway/tool_filter.ts");
  const run = await evalFinishes(`
    import { globMatches } from ${JSON.stringify(filter)};
    const name = "a".repeat(1_000_000);
    console.log(globMatches("*a*a*b", name), globMatches("*a*a*", name));
  `);
  assert.ok(run.finished, "matching did not finish in 20 s");
  assert.equal(run.stdout.trim(), "false true");
});
