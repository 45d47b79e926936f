import assert from "node:assert/strict";
import { ignoreLine, reachesUnder } from "../../../lib/ripgrep/ignore_line.ts";

Deno.test("ignoreLine tests name lines on the name, and agrees with the glob automaton", () => {
  const names = [
    "node_modules",
    "a.log",
    ".log",
    ".env",
    ".env.local",
    "x.pyc",
    "x.pyo",
    "x.py",
    "cache",
    "a~",
  ];
  for (const line of ["node_modules/", "*.log", ".env*", "*.py[co]", "**/cache", "*~", "\\!bang", "!*.log"]) {
    const rule = ignoreLine(line);
    assert.equal(rule.onName, true, line);
    const glob = line.startsWith("**/") ? line : `**/${line.replace(/^\\?!/, "").replace(/\/$/, "")}`;
    const reference = ignoreLine(`a/${glob}`);
    for (const name of names) assert.equal(rule.test(name), reference.test(`a/x/${name}`), `${line} ${name}`);
  }
  assert.equal(ignoreLine("!*.log").whitelist, true);
  assert.equal(ignoreLine("\\!bang").whitelist, false);
  assert.equal(ignoreLine("\\!bang").test("!bang"), true);
  assert.equal(ignoreLine("build/").dirOnly, true);
});

Deno.test("ignoreLine: a path line is anchored to its folder, and dropped where the walk never goes", () => {
  const coverage = ignoreLine("/coverage");
  assert.equal(coverage.onName, false);
  assert.equal(coverage.test("coverage"), true);
  assert.equal(coverage.test("src/coverage"), false);
  assert.equal(reachesUnder(coverage, "src/app"), false);
  assert.equal(reachesUnder(ignoreLine("src/app/gen/"), "src/app"), true);
  assert.equal(reachesUnder(ignoreLine("src/*/gen/"), "src/app"), true);
  assert.equal(reachesUnder(ignoreLine("src/apple/"), "src/app"), false);
  assert.equal(reachesUnder(ignoreLine("**/gen/**"), "src/app"), true);
  assert.equal(reachesUnder(ignoreLine("*.log"), "src/app"), true);
});
