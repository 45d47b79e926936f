import assert from "node:assert/strict";
import { ancestors, anySpelling, pathRegex, sbplString, trimSlash } from "../../../lib/sandbox/sbpl.ts";
import { readProfile } from "./_sbpl_reader.ts";

Deno.test("sbplString: quotes and backslashes escaped, every other byte kept, the value reads back exactly", () => {
  assert.equal(sbplString('/a "b"\\c'), String.raw`"/a \"b\"\\c"`);
  for (
    const value of ['/w/x") (allow default) ("', "/w/line\nbreak", "/w/tab\there", "/w/\\", "/w/é", "/w/;x"]
  ) {
    assert.deepEqual(readProfile(`(subpath ${sbplString(value)})`), [["subpath", { string: value }]], value);
  }
  assert.throws(() => sbplString("/w/\0"), /NUL/);
});

Deno.test("anySpelling: ASCII letters in both cases, metacharacters escaped, others as they are", () => {
  assert.equal(anySpelling(".Git"), String.raw`\.[gG][iI][tT]`);
  assert.equal(anySpelling("a+b(1)[2]{3}|^$*?\\"), String.raw`[aA]\+[bB]\(1\)\[2\]\{3\}\|\^\$\*\?\\`);
  assert.equal(anySpelling("/_-0 ~"), "/_-0 ~");
});

Deno.test("pathRegex: matches every case and normalisation of the path and what is under it, nothing else", () => {
  const ssh = new RegExp(pathRegex("/Users/José/.ssh/", { subtree: true }), "u");
  const decomposed = "/Users/Jose\u0301/.ssh/id";
  for (const path of ["/Users/José/.ssh", "/Users/José/.ssh/id_ed25519", "/users/JOSÉ/.SSH/x", decomposed]) {
    assert.ok(ssh.test(path), path);
  }
  for (
    const path of [
      "/Users/José/.sshx",
      "/Users/José/.ss",
      "/Users/José",
      "/x/Users/José/.ssh",
      "/Users/Jose/.ssh",
    ]
  ) {
    assert.ok(!ssh.test(path), path);
  }
  const exact = new RegExp(pathRegex("/w/a.b", { subtree: false }), "u");
  assert.ok(exact.test("/w/A.B"));
  assert.ok(!exact.test("/w/a.b/c"));
  assert.ok(!exact.test("/w/axb"), "a dot is a dot");
});

Deno.test("trimSlash and ancestors: absolute paths only, no trailing slash, every folder above", () => {
  assert.equal(trimSlash("/a/b/"), "/a/b");
  assert.equal(trimSlash("/"), "/");
  assert.throws(() => trimSlash("a/b"), /absolute/);
  assert.deepEqual(ancestors("/a/b/c"), ["/a/b", "/a"]);
  assert.deepEqual(ancestors("/a"), []);
});
