/** Reading git's pointer, commondir and config files as git does, without git. */
import assert from "node:assert/strict";
import {
  configValues,
  parseCommondir,
  parseGitConfig,
  parseGitPointer,
} from "../../../lib/sandbox/git_config.ts";

const hooksPath = (text: string) => configValues(parseGitConfig(text), "core", "hookspath");

Deno.test("parseGitConfig: core.hooksPath in git's spellings", () => {
  assert.deepEqual(hooksPath("[core]\n\thooksPath = .husky/_\n"), [".husky/_"]);
  assert.deepEqual(hooksPath("[CORE]\n  HOOKSPATH=hooks\r\n"), ["hooks"]);
  assert.deepEqual(hooksPath("[core] hooksPath = same-line"), ["same-line"]);
  assert.deepEqual(hooksPath('[core]\n\thooksPath = " spaced  out " # comment\n'), [" spaced  out "]);
  assert.deepEqual(hooksPath("[core]\n\thooksPath = a b\t ; comment\n"), ["a b"]);
  assert.deepEqual(hooksPath('[core]\n\thooksPath = "a\\"b\\\\c"\n'), ['a"b\\c']);
  assert.deepEqual(hooksPath("[core]\n\thooksPath = long\\\n-name\n"), ["long-name"]);
  assert.deepEqual(hooksPath("[core]\n\thooksPath = one\n[core]\n\thooksPath = two\n"), ["one", "two"]);
});

Deno.test("parseGitConfig: other sections, comments and a bare key are not core.hooksPath", () => {
  assert.deepEqual(hooksPath("# [core] hooksPath = no\n; hooksPath = no\n[user]\n\thooksPath = no\n"), []);
  assert.deepEqual(hooksPath('[core "x"]\n\tfilemode = true\n[core]\n\tbare\n'), []);
  const entries = parseGitConfig('[core]\n\tbare\n\tfsmonitor = "touch x; false"\n');
  assert.deepEqual(entries, [
    { section: "core", subsection: null, key: "bare", value: null },
    { section: "core", subsection: null, key: "fsmonitor", value: "touch x; false" },
  ]);
});

Deno.test("parseGitConfig: include.path and includeIf.<condition>.path, subsections as written", () => {
  const entries = parseGitConfig(
    '[include]\n\tpath = ../.gitconfig\n[includeIf "gitdir:~/Work/"]\n\tpath = work.inc\n[remote.Origin]\n\turl = x\n',
  );
  assert.deepEqual(configValues(entries, "include", "path"), ["../.gitconfig"]);
  assert.deepEqual(configValues(entries, "includeif", "path"), ["work.inc"]);
  assert.equal(entries[1].subsection, "gitdir:~/Work/");
  // The old `[section.subsection]` form lower-cases the subsection.
  assert.deepEqual(configValues(entries, "remote", "url", "origin"), ["x"]);
});

Deno.test("parseGitConfig: a broken line is skipped, not the rest of the file", () => {
  assert.deepEqual(hooksPath("[core\n=oops\n[core]\n\thooksPath = kept\n"), ["kept"]);
});

Deno.test("parseGitPointer and parseCommondir: what git follows", () => {
  assert.equal(parseGitPointer("gitdir: ../.git/modules/lib\n"), "../.git/modules/lib");
  assert.equal(parseGitPointer("gitdir: /abs/path\r\n"), "/abs/path");
  assert.equal(parseGitPointer("gitdir:nospace\n"), null);
  assert.equal(parseGitPointer("[core]\n"), null);
  assert.equal(parseCommondir("../..\n"), "../..");
  assert.equal(parseCommondir("\n"), null);
});
