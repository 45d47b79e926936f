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
    "a.md",
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
