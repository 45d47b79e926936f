import assert from "node:assert/strict";
import { intentMatch, queryIntents, toolIntents } from "../../../mcp/gateway/intent.ts";
import { phraseWord } from "../../../mcp/gateway/synonyms.ts";
import { queryWords } from "../../../mcp/gateway/tokenize.ts";

const intentsOf = (query: string) => [...queryIntents(queryWords(query).map(phraseWord))].sort();

Deno.test("queryIntents reads the leading verb, phrases and lead-ins included", () => {
  assert.deepEqual(intentsOf("spin up a VM"), ["create"]);
  assert.deepEqual(intentsOf("can you please nuke the staging bucket"), ["delete"]);
  assert.deepEqual(intentsOf("get rid of the old snapshots"), ["delete"], "the phrase, not get");
  assert.deepEqual(intentsOf("roll back the last deploy"), ["undo"]);
  assert.deepEqual(intentsOf("kick off the nightly build"), ["run"]);
  assert.deepEqual(intentsOf("file a bug about the crash"), ["create"]);
  assert.deepEqual(intentsOf("what VMs are running"), ["list", "read"]);
  assert.deepEqual(intentsOf("postgres slow queries"), [], "no verb, no intent");
  assert.deepEqual(intentsOf("the bucket to delete"), [], "only the leading verb counts");
});

Deno.test("toolIntents reads the first verb of the name, and the description's first word", () => {
  assert.deepEqual([...toolIntents("list_instances", "List VM instances")], ["list"]);
  assert.deepEqual([...toolIntents("create_or_update_file", "")], ["create"]);
  assert.deepEqual([...toolIntents("browser_take_screenshot", "Take a screenshot")], []);
  assert.deepEqual([...toolIntents("flushdb", "Remove all keys from the current database.")], ["delete"]);
  assert.deepEqual(
    [...toolIntents("fs_list", "Tree of a folder")].sort(),
    ["list", "read"].sort().filter((i) => i === "list"),
  );
});

Deno.test("intentMatch: the same intent counts fully, another way to look up counts half, others none", () => {
  assert.equal(intentMatch(new Set(["create"]), new Set(["create"])), 1);
  assert.equal(intentMatch(new Set(["list"]), new Set(["read"])), 0.5);
  assert.equal(intentMatch(new Set(["create"]), new Set(["list"])), 0);
  assert.equal(intentMatch(new Set(["delete"]), new Set()), 0);
});

// Servers that name the noun first (`pods_list`, `dns_record_create`) had no intent, so the verb bonus
// never reached them.
Deno.test("toolIntents reads the last word of a name that does not start with a verb", () => {
  assert.deepEqual([...toolIntents("pods_list", "")], ["list"]);
  assert.deepEqual([...toolIntents("dns_record_create", "")], ["create"]);
  assert.deepEqual([...toolIntents("browser_file_upload", "")], [], "a verb in the middle is not read");
});
