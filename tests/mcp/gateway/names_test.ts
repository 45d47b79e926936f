import assert from "node:assert/strict";
import {
  assignNames,
  MAX_NAME_LENGTH,
  normaliseName,
  prefixOf,
  qualifiedName,
  toolKey,
} from "../../../mcp/gateway/names.ts";

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

Deno.test("names: every character outside [a-zA-Z0-9_-] becomes _, in the server and the tool part", () => {
  assert.equal(prefixOf("my.server"), "my_server");
  assert.equal(prefixOf("git-hub_2"), "git-hub_2");
  assert.equal(prefixOf("données ✓"), "donn_es__");
  assert.equal(qualifiedName("github", "list_issues"), "github__list_issues");
  assert.equal(qualifiedName("db", "query.run/all"), "db__query_run_all");
  assert.equal(normaliseName("a😀b"), "a_b", "one character outside the set is one _, even past UTF-16");
});

Deno.test("names: a name over 64 characters is cut to 55 plus _ and 8 hex digits of the whole name's hash", () => {
  const long = "a_very_long_tool_name_that_goes_on_and_on_past_what_clients_accept";
  const name = qualifiedName("server", long);
  assert.equal(name.length, MAX_NAME_LENGTH);
  assert.match(name, VALID);
  assert.equal(name.slice(0, 55), `server__${long}`.slice(0, 55));
  assert.match(name.slice(55), /^_[0-9a-f]{8}$/);
  assert.equal(qualifiedName("server", long), name, "stable from call to call");
  const sibling = qualifiedName("server", `${long}_2`);
  assert.notEqual(sibling, name, "two long names sharing their first 55 characters stay apart");
  assert.equal(sibling.slice(0, 55), name.slice(0, 55));
  const exact = "t".repeat(MAX_NAME_LENGTH - "s__".length);
  assert.equal(qualifiedName("s", exact), `s__${exact}`, "exactly 64 characters is kept as is");
});

Deno.test("names: assignNames gives each (server, tool) its qualified name when there is no collision", () => {
  const { names, collisions } = assignNames([
    { server: "github", prefix: "github", tool: "list_issues" },
    { server: "jira", prefix: "jira", tool: "list_issues" },
  ]);
  assert.deepEqual(collisions, []);
  assert.equal(names.get(toolKey("github", "list_issues")), "github__list_issues");
  assert.equal(names.get(toolKey("jira", "list_issues")), "jira__list_issues");
});

Deno.test("names: a collision is reported and the normalised tool gets a hash suffix, deterministically", () => {
  const entries = [
    { server: "db", prefix: "db", tool: "run.query" },
    { server: "db", prefix: "db", tool: "run_query" },
    { server: "db", prefix: "db", tool: "run query" },
    { server: "a_", prefix: "a_", tool: "x" },
    { server: "a", prefix: "a", tool: "_x" },
  ];
  const { names, collisions } = assignNames(entries);
  // run_query is a valid name as it is: it keeps it, though run.query came first.
  assert.equal(names.get(toolKey("db", "run_query")), "db__run_query");
  const dotted = names.get(toolKey("db", "run.query"))!;
  const spaced = names.get(toolKey("db", "run query"))!;
  assert.match(dotted, /^db__run_query_[0-9a-f]{8}$/);
  assert.match(spaced, /^db__run_query_[0-9a-f]{8}$/);
  assert.notEqual(dotted, spaced);
  // Both exact, across servers: the first in config order keeps it.
  assert.equal(names.get(toolKey("a_", "x")), "a___x");
  const second = names.get(toolKey("a", "_x"))!;
  assert.match(second, /^a___x_[0-9a-f]{8}$/);
  assert.equal(new Set(names.values()).size, names.size, "every name is unique");
  assert.deepEqual(collisions, [
    `"a_" tool "x" and "a" tool "_x" both become "a___x"; "_x" is named "${second}"`,
    `"db" tool "run_query" and "db" tool "run.query" both become "db__run_query"; "run.query" is named "${dotted}"`,
    `"db" tool "run_query" and "db" tool "run query" both become "db__run_query"; "run query" is named "${spaced}"`,
  ]);
  assert.deepEqual(assignNames(entries), { names, collisions }, "same input, same names");
});

Deno.test("names: a tool whose name is valid as it is keeps it, whatever was listed before it", () => {
  // Found attacking the gateway: read_file became read_file_e73807f2 because read.file was listed first.
  const { names } = assignNames([
    { server: "fs", prefix: "fs", tool: "read.file" },
    { server: "fs", prefix: "fs", tool: "read_file" },
  ]);
  assert.equal(names.get(toolKey("fs", "read_file")), "fs__read_file");
  assert.match(names.get(toolKey("fs", "read.file"))!, /^fs__read_file_[0-9a-f]{8}$/);
});

Deno.test("names: a suffixed name never takes a later tool's own name, and stays within 64 characters", () => {
  const first = assignNames([
    { server: "s", prefix: "s", tool: "a_b" },
    { server: "s", prefix: "s", tool: "a.b" },
  ]);
  const suffixed = first.names.get(toolKey("s", "a.b"))!;
  const tool = suffixed.slice("s__".length);
  const { names } = assignNames([
    { server: "s", prefix: "s", tool: "a_b" },
    { server: "s", prefix: "s", tool: "a.b" },
    { server: "s", prefix: "s", tool },
  ]);
  assert.equal(names.get(toolKey("s", tool)), suffixed, "the tool whose own name it is keeps it");
  assert.notEqual(names.get(toolKey("s", "a.b")), suffixed);
  assert.equal(new Set(names.values()).size, 3);
  const long = "x".repeat(80);
  const capped = assignNames([
    { server: "s", prefix: "s", tool: `${long}.` },
    { server: "s", prefix: "s", tool: `${long}_` },
  ]);
  for (const name of capped.names.values()) assert.match(name, VALID);
  assert.equal(capped.collisions.length, 1);
});

Deno.test("names: a collision line quotes a huge tool name short", () => {
  const huge = `${"x".repeat(100_000)}.`;
  const { collisions } = assignNames([
    { server: "s", prefix: "s", tool: `${"x".repeat(100_000)}_` },
    { server: "s", prefix: "s", tool: huge },
  ]);
  assert.equal(collisions.length, 1);
  assert.ok(collisions[0].length < 1_000, `${collisions[0].length} characters`);
});

Deno.test("names: the same (server, tool) listed twice is one tool, not a collision", () => {
  const entry = { server: "s", prefix: "s", tool: "t" };
  const { names, collisions } = assignNames([entry, entry]);
  assert.equal(names.size, 1);
  assert.deepEqual(collisions, []);
});
