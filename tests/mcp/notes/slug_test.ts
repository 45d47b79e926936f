import assert from "node:assert/strict";
import { closestSlugs, isSlug, slugify, titleFromSlug, validateSlug } from "../../../mcp/notes/slug.ts";
import { ToolError } from "../../../lib/mcp/errors.ts";

Deno.test("valid slugs pass unchanged", () => {
  for (const slug of ["a", "0", "build-commands", "v2-release-notes", "a".repeat(64)]) {
    assert.equal(validateSlug(slug), slug);
  }
});

Deno.test("every escape attempt and malformed slug is invalid_argument", () => {
  const attempts = [
    "",
    "..",
    "../x",
    "..\\x",
    "a/b",
    "a\\b",
    "/etc/passwd",
    "C:\\x",
    "c:x",
    ".hidden",
    ".md",
    "A.md",
    "a.md.md",
    "a.b",
    "Build",
    "build commands",
    "-lead",
    "trail-",
    "a\0b",
    "%2e%2e",
    "a".repeat(65),
    "con",
    "nul",
    "com1",
    "lpt9",
    "prn",
    "aux",
    "über",
    "~",
    " a",
  ];
  for (const attempt of attempts) {
    assert.equal(isSlug(attempt), false, `${JSON.stringify(attempt)} passed as a slug`);
    assert.throws(
      () => validateSlug(attempt),
      (error) => error instanceof ToolError && error.code === "invalid_argument",
      JSON.stringify(attempt),
    );
  }
});

Deno.test("a file name foo.md names the slug foo", () => {
  assert.equal(validateSlug("build-commands.md"), "build-commands");
  assert.equal(validateSlug("a.MD"), "a");
  assert.equal(isSlug("a.md"), false);
  assert.throws(() => validateSlug("con.md"), /a name Windows reserves/);
});

Deno.test("an invalid slug suggests its slugified form", () => {
  assert.throws(() => validateSlug("Build Commands"), /did you mean "build-commands"\?/);
  assert.throws(() => validateSlug("con"), /a name Windows reserves/);
});

Deno.test("slugify folds accents, drops punctuation, stays within 64 characters and avoids reserved names", () => {
  assert.equal(slugify("Ünïcode & Build: Steps!"), "unicode-build-steps");
  assert.equal(slugify("  --  "), "");
  assert.equal(slugify("CON"), "con-note");
  const long = slugify("word ".repeat(40));
  assert.ok(long.length <= 64 && isSlug(long), long);
  assert.equal(slugify("x".repeat(100)), "x".repeat(64));
});

Deno.test("titleFromSlug and closestSlugs", () => {
  assert.equal(titleFromSlug("build-commands"), "Build commands");
  assert.deepEqual(closestSlugs("gotcha", ["gotchas", "build", "deploy"]), ["gotchas"]);
  assert.deepEqual(closestSlugs("build", ["build-commands", "zzz"]), ["build-commands"]);
  assert.deepEqual(closestSlugs("qqqqqq", ["build", "deploy"]), []);
});

Deno.test("slugify spells Cyrillic, Greek and ß-like letters in Latin", () => {
  assert.equal(slugify("Заметки о сборке"), "zametki-o-sborke");
  assert.equal(slugify("Київ їжак"), "kiyiv-yizhak");
  assert.equal(slugify("Ωμέγα και Άλφα"), "omega-kai-alfa");
  assert.equal(slugify("Straße Ærø Łódź"), "strasse-aero-lodz");
});

Deno.test("slugify gives letters it cannot spell a stable short hash instead of dropping them", () => {
  const cjk = slugify("构建命令");
  assert.match(cjk, /^note-[0-9a-f]{6}$/);
  assert.equal(slugify("  构建命令 "), cjk);
  assert.notEqual(slugify("部署步骤"), cjk);
  assert.match(slugify("构建 CI"), /^ci-[0-9a-f]{6}$/);
  const long = slugify(`${"日本語".repeat(30)} ${"word ".repeat(20)}`);
  assert.ok(long.length <= 64 && isSlug(long), long);
  assert.equal(slugify("🚀 !"), "");
});
