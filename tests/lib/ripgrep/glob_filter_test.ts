import assert from "node:assert/strict";
import { globFilter } from "../../../lib/ripgrep/glob_filter.ts";
import { requireRipgrep } from "../../../lib/ripgrep/locate.ts";
import { RipgrepRun } from "../../../lib/ripgrep/run.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { ToolError } from "../../../lib/mcp/errors.ts";

const TREE = [
  "a.ts",
  "b.js",
  "c.test.ts",
  "src/a.ts",
  "src/deep/x.tsx",
  "src/deep/y.md",
  "dist/bundle.js",
  "dist/src/z.ts",
  "test/t.ts",
  "test/keep.ts",
  "docs/[x].md",
  "README",
  "é.txt",
];

const GLOBS: string[][] = [
  ["*.ts"],
  ["**/*.ts"],
  ["*"],
  ["**"],
  ["src/**"],
  ["src/**/*.ts"],
  ["/a.ts"],
  ["src/*.ts"],
  ["*.{ts,tsx}"],
  ["?.ts"],
  ["[ab].*"],
  ["*.ts", "!test/**"],
  ["!dist/**"],
  ["!dist"],
  ["!dist/"],
  ["*.ts", "!src"],
  ["!test/**", "test/keep.ts"],
  ["dist/**", "!*.js"],
  ["src"],
  ["**/deep/*"],
  ["docs/\\[x\\].md"],
  ["README"],
  ["[!a]*.ts"],
  ["[a-c].*"],
  ["{src,test}/**/*.{ts,tsx}"],
  ["{src/{deep,x},dist}/**"],
  ["**/*.m?"],
  ["src/**/deep/**"],
  ["!src/"],
  ["é*"],
];

/** Without ignore rules ripgrep's override globs filter exactly as the narrowing filter must. */
Deno.test("globFilter agrees with ripgrep's own --glob on a tree without ignore rules", async () => {
  await using ws = await tempWorkspace(Object.fromEntries(TREE.map((path) => [path, ""])));
  const rg = await requireRipgrep();
  for (const globs of GLOBS) {
    const args = ["--files", "--no-config", "--no-ignore", "--path-separator", "/"];
    for (const glob of globs) args.push("--glob", glob);
    const run = new RipgrepRun(rg, args, { cwd: ws.path });
    const expected: string[] = [];
    for await (const line of run.lines()) expected.push(line);
    await run.exit;
    const filter = globFilter(globs);
    assert.deepEqual(TREE.filter((path) => filter.matches(path)).sort(), expected.sort(), globs.join(" "));
  }
});

Deno.test("globFilter hands ripgrep only negations no later glob overrules, and name globs for types", () => {
  assert.deepEqual(globFilter(["*.ts", "!dist/**"]).ripgrepGlobs, ["!dist/**"]);
  assert.deepEqual(globFilter(["!test/**", "test/keep.ts"]).ripgrepGlobs, []);
  assert.deepEqual(globFilter(["*.ts", "*.{js,mjs}"]).nameGlobs, ["*.ts", "*.{js,mjs}"]);
  assert.deepEqual(globFilter(["*.ts", "src/**"]).nameGlobs, []);
  assert.throws(() => globFilter(["[ab"]), (e) => e instanceof ToolError && e.code === "invalid_argument");
});

Deno.test("globFilter matches without backtracking: a glob of many stars against a long name", () => {
  // A backtracking regex takes exponential time here; the state-set matcher is linear.
  const filter = globFilter(["src/" + "*a".repeat(40) + "*b"]);
  assert.equal(filter.matches("src/" + "a".repeat(200) + "c"), false);
  assert.equal(filter.matches("src/" + "a".repeat(200) + "b"), true);
});
