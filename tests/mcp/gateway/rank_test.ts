import assert from "node:assert/strict";
import { log } from "../../../lib/log.ts";
import { bm25Baseline, buildIndex, searchIndex, suggestNames } from "../../../mcp/gateway/rank.ts";
import type { CatalogTool } from "../../../mcp/gateway/types.ts";
import { accuracy, fixtureQueries, fixtureTools } from "./fixture/catalog.ts";
import { BLIND_SET_DIR, DEV_SET_DIR, loadQuerySet, scoreQuerySet } from "./fixture/query_set.ts";

function tool(server: string, name: string, extra: Partial<CatalogTool> = {}): CatalogTool {
  return { qualifiedName: `${server}__${name}`, server, name, inputSchema: { type: "object" }, ...extra };
}

function names(hits: { tool: CatalogTool }[]): string[] {
  return hits.map((hit) => hit.tool.qualifiedName);
}

Deno.test("the ranking finds a right tool in the top 3 for 90% of the fixture's queries, and beats plain BM25", () => {
  const tools = fixtureTools();
  const queries = fixtureQueries();
  assert.ok(tools.length >= 300 && new Set(tools.map((t) => t.server)).size >= 25, "fixture size");
  assert.ok(queries.length >= 100, "query count");
  const index = buildIndex(tools);
  const ours = accuracy(queries, (query) => searchIndex(index, query, { limit: 3 }));
  const baseline = bm25Baseline(tools);
  const plain = accuracy(queries, (query) => baseline(query, { limit: 3 }));
  const percent = (share: number) => `${(100 * share).toFixed(1)}%`;
  log.info(
    `gateway ranking on ${queries.length} queries, ${tools.length} tools: ours top-1 ${percent(ours.top1)} ` +
      `top-3 ${percent(ours.top3)}; plain BM25 top-1 ${percent(plain.top1)} top-3 ${percent(plain.top3)}`,
  );
  assert.ok(ours.top3 >= 0.9, `top-3 ${percent(ours.top3)}, misses: ${JSON.stringify(ours.misses, null, 1)}`);
  assert.ok(ours.top3 >= plain.top3 + 0.05, `top-3 ${percent(ours.top3)} vs BM25 ${percent(plain.top3)}`);
  assert.ok(ours.top1 > plain.top1, `top-1 ${percent(ours.top1)} vs BM25 ${percent(plain.top1)}`);
});

Deno.test("the ranking holds up on the dev and blind sets (other catalogs, other queries), above plain BM25", () => {
  for (const [dir, floor] of [[DEV_SET_DIR, 0.85], [BLIND_SET_DIR, 0.9]] as const) {
    const { tools, queries } = loadQuerySet(dir);
    const index = buildIndex(tools);
    const ours = scoreQuerySet(queries, (query) => searchIndex(index, query, { limit: 3 }));
    const baseline = bm25Baseline(tools);
    const plain = scoreQuerySet(queries, (query) => baseline(query, { limit: 3 }));
    const misses = JSON.stringify(ours.misses, null, 1);
    assert.ok(
      ours.top3 >= floor * ours.answerable,
      `${dir}: top-3 ${ours.top3}/${ours.answerable}: ${misses}`,
    );
    assert.ok(ours.top3 > plain.top3 && ours.top1 > plain.top1, `${dir}: not above plain BM25`);
    assert.ok(ours.hardTop3 >= plain.hardTop3 && ours.noMatchRight >= plain.noMatchRight, dir);
  }
});

Deno.test("every expected name in the query fixture is a tool of the tool fixture", () => {
  const known = new Set(fixtureTools().map((t) => t.qualifiedName));
  for (const { query, expected } of fixtureQueries()) {
    for (const name of expected) assert.ok(known.has(name), `${query}: ${name}`);
  }
});

Deno.test("searchIndex weighs a word in the name above the same word in a description", () => {
  const index = buildIndex([
    tool("a", "get_weather", { description: "Forecast for a city; also reports the wind" }),
    tool("b", "wind_speed", { description: "Gusts for a city" }),
  ]);
  assert.deepEqual(names(searchIndex(index, "wind")), ["b__wind_speed", "a__get_weather"]);
});

Deno.test("searchIndex reads titles, annotation titles, nested parameters and the server's instructions", () => {
  const index = buildIndex([
    tool("a", "t1", { annotations: { title: "Rotate credentials" } }),
    tool("a", "t2", {
      inputSchema: {
        type: "object",
        properties: { rows: { type: "array", items: { properties: { zebra: {} } } } },
      },
    }),
    tool("zoo", "t3", { serverInstructions: "Penguin enclosure controls" }),
    tool("a", "t4", { title: "Archive mailbox" }),
  ]);
  assert.deepEqual(names(searchIndex(index, "rotate")), ["a__t1"]);
  assert.deepEqual(names(searchIndex(index, "zebra")), ["a__t2"]);
  assert.deepEqual(names(searchIndex(index, "penguin")), ["zoo__t3"]);
  assert.deepEqual(names(searchIndex(index, "mailboxes")), ["a__t4"], "stemmed");
});

Deno.test("searchIndex expands synonyms, phrases included, and ranks the literal word first", () => {
  const index = buildIndex([
    tool("s3", "delete_bucket", { description: "Delete an empty bucket" }),
    tool("s3", "list_buckets", { description: "List buckets" }),
    tool("s3", "remove_tag", { description: "Remove a tag from a bucket" }),
  ]);
  assert.equal(names(searchIndex(index, "get rid of the bucket"))[0], "s3__delete_bucket");
  assert.equal(names(searchIndex(index, "remove bucket"))[0], "s3__remove_tag", "the literal word wins");
  assert.equal(names(searchIndex(index, "ls buckets"))[0], "s3__list_buckets");
});

Deno.test("searchIndex honours limit and the server filter, and finds nothing for unknown words", () => {
  const tools = fixtureTools();
  const index = buildIndex(tools);
  assert.equal(searchIndex(index, "list issues").length, 5, "default limit");
  assert.equal(searchIndex(index, "list issues", { limit: 2 }).length, 2);
  const gitlab = searchIndex(index, "list issues", { server: "GitLab", limit: 50 });
  assert.ok(gitlab.length > 0 && gitlab.every((hit) => hit.tool.server === "gitlab"));
  assert.equal(gitlab[0].tool.qualifiedName, "gitlab__list_issues");
  assert.deepEqual(searchIndex(index, "list issues", { server: "nope" }), []);
  assert.deepEqual(searchIndex(index, "xyzzy plugh"), []);
  assert.deepEqual(searchIndex(index, "the of a"), [], "stopwords alone match nothing");
  const scores = searchIndex(index, "create issue", { limit: 10 }).map((hit) => hit.score);
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a), "best first");
});

Deno.test("searchIndex puts a tool first when the query is its exact name", () => {
  const index = buildIndex(fixtureTools());
  assert.equal(names(searchIndex(index, "get_pull_request_diff"))[0], "github__get_pull_request_diff");
  assert.equal(
    names(searchIndex(index, "browser_take_screenshot"))[0],
    "playwright__browser_take_screenshot",
  );
});

Deno.test("suggestNames offers the closest qualified names by edit distance", () => {
  const index = buildIndex(fixtureTools());
  const suggestions = suggestNames(index, "github__list_issue");
  assert.equal(suggestions[0], "github__list_issues", "closest first");
  assert.equal(suggestions.length, 3, "three by default");
  assert.equal(suggestNames(index, "gitub__create_isue")[0], "github__create_issue");
  assert.ok(suggestNames(index, "list_issues").includes("github__list_issues"), "bare downstream name");
  assert.ok(suggestNames(index, "list_issues", 2).length <= 2);
  assert.deepEqual(suggestNames(index, "completely_unrelated_words"), []);
});

Deno.test("bm25Baseline is plain: no stemming and no synonyms", () => {
  const baseline = bm25Baseline([tool("s3", "delete_bucket", { description: "Delete a bucket" })]);
  assert.equal(baseline("delete bucket").length, 1);
  assert.deepEqual(baseline("deleting buckets"), []);
  assert.deepEqual(baseline("remove"), []);
});

Deno.test("searchIndex: the remains of a contraction match nothing (what's → what, s)", () => {
  const index = buildIndex([tool("a", "read_log", { description: "Read the server's log" })]);
  assert.deepEqual(names(searchIndex(index, "what's the weather in Paris")), []);
  assert.deepEqual(names(searchIndex(index, "what's in the log")), ["a__read_log"]);
});

// Issue 23: "spin up a VM" ranked list_instances first: the verb was unknown, so the noun decided.
Deno.test("searchIndex ranks the tool whose verb the query leads with above its siblings", () => {
  const index = buildIndex([
    tool("gcp", "list_instances", { description: "List Compute Engine VM instances in a zone" }),
    tool("gcp", "create_instance", { description: "Create a Compute Engine VM instance" }),
    tool("gcp", "delete_instance", { description: "Delete a Compute Engine VM instance" }),
    tool("s3", "delete_bucket", { description: "Delete a bucket" }),
    tool("deploy", "rollback_release", { description: "Return to the release before the current one" }),
    tool("deploy", "list_releases", { description: "Releases, newest first" }),
  ]);
  assert.equal(names(searchIndex(index, "spin up a VM"))[0], "gcp__create_instance");
  assert.equal(names(searchIndex(index, "nuke the test VM"))[0], "gcp__delete_instance");
  assert.equal(names(searchIndex(index, "undo the last release"))[0], "deploy__rollback_release");
  assert.equal(names(searchIndex(index, "what VMs do we have"))[0], "gcp__list_instances");
});

// Issue 23: "PRs" split into `p`, `rs`, and "direct message" met a tool that says "message a user" only on
// "message", as much as one that posts to a channel.
Deno.test("searchIndex reads acronym plurals and phrase synonyms: PRs, direct message", () => {
  const index = buildIndex([
    tool("git", "list_issues", { description: "List open issues of a repository" }),
    tool("git", "list_pull_requests", { description: "List pull requests of a repository" }),
    tool("git", "list_runs", { description: "Show recent CI runs" }),
    tool("chat", "post_message", { description: "Post a message to a channel" }),
    tool("chat", "message_user", { description: "Send a message to a user" }),
  ]);
  assert.equal(names(searchIndex(index, "show me open PRs on acme/api"))[0], "git__list_pull_requests");
  assert.equal(names(searchIndex(index, "direct message bob"))[0], "chat__message_user");
  assert.equal(names(searchIndex(index, "DM bob about the outage"))[0], "chat__message_user");
});

/** This project's own servers as the gateway catalogs them: their tools.json and instructions. */
function projectCatalog(servers: string[]): CatalogTool[] {
  const root = new URL("../../../mcp/", import.meta.url);
  return servers.flatMap((server) => {
    const meta = JSON.parse(Deno.readTextFileSync(new URL(`${server}/server.json`, root)));
    const listed = JSON.parse(Deno.readTextFileSync(new URL(`${server}/tools.json`, root))) as CatalogTool[];
    return listed.map((listedTool) =>
      tool(server, listedTool.name, { ...listedTool, serverInstructions: meta.instructions })
    );
  });
}

// Issue 23: with only notes, sql and fs behind the gateway, the directory queries put sql_lint first, and
// queries no tool answers listed tools matched on one stray word ("end" in the notes server's instructions).
Deno.test("searchIndex over notes, sql and fs: fs_list for directories, nothing where no tool fits", () => {
  const index = buildIndex(projectCatalog(["notes", "sql", "fs"]));
  assert.equal(names(searchIndex(index, "list the files in a directory"))[0], "fs__fs_list");
  assert.equal(names(searchIndex(index, "show me the directory tree"))[0], "fs__fs_list");
  assert.equal(names(searchIndex(index, "read the README"))[0], "fs__fs_read");
  assert.ok(
    names(searchIndex(index, "remember that we use pnpm")).slice(0, 3).includes("notes__notes_write"),
  );
  for (
    const query of ["kill the process on port 3000", "send an email to bob", "what's the weather in Paris"]
  ) {
    assert.deepEqual(names(searchIndex(index, query)), [], query);
  }
});

// A leading verb that is also a noun ("check my inbox") matched a tool named for the noun (`check_domain`)
// above the tool for what the query is about.
Deno.test("searchIndex counts a leading verb below the words of what the query is about", () => {
  const index = buildIndex([
    tool("git", "create_or_update_file", { description: "Create or update a single file in a repository" }),
    tool("git", "create_issue", { description: "Create a new issue in a repository" }),
    tool("web", "check_domain_availability", { description: "Check if domain names are available" }),
    tool("mail", "search_messages", { description: "Search messages in the user's mailbox by a query" }),
  ]);
  assert.equal(
    names(searchIndex(index, "check my inbox for mail from the bank"))[0],
    "mail__search_messages",
  );
});

// A query no tool answers shared one word with a tool and got it: a lowercase word no tool uses now counts
// three quarters of a rare word against the query (it was half), one written like a name (`Acme`, `PROJ-7`)
// a quarter: a name is an argument, not something the catalog lacks.
Deno.test("searchIndex weighs a lowercase word no tool uses above a name", () => {
  const index = buildIndex([
    tool("shop", "create_order", { description: "Create an order for a customer" }),
    tool("shop", "list_orders", { description: "List orders of a customer" }),
    tool("shop", "get_customer", { description: "Get a customer by id" }),
    tool("shop", "refund_payment", { description: "Refund a payment" }),
    tool("shop", "list_products", { description: "List products in the store" }),
    tool("shop", "update_inventory", { description: "Set stock of a product" }),
  ]);
  assert.deepEqual(names(searchIndex(index, "customer pizza soda brunch party")), []);
  assert.equal(names(searchIndex(index, "customer Jane Doe Acme Corp"))[0], "shop__get_customer");
});

// "email the invoice to the client" put tools taking an `email` parameter first: the leading verb is now
// matched against what a tool says it does (name, title, description), never against its parameters.
Deno.test("searchIndex matches the leading verb against what a tool does, not what it takes", () => {
  const index = buildIndex([
    tool("pay", "send_invoice", {
      description: "Send an existing invoice to the specified recipient",
      inputSchema: { type: "object", properties: { invoice_id: { type: "string" } } },
    }),
    tool("pay", "create_invoice", {
      description: "Create an invoice for a customer",
      inputSchema: {
        type: "object",
        properties: { customer: { type: "string" }, email: { type: "string" } },
      },
    }),
    tool("pay", "list_customers", {
      description: "List customers",
      inputSchema: { type: "object", properties: { email: { type: "string" }, limit: { type: "number" } } },
    }),
  ]);
  assert.equal(names(searchIndex(index, "email the invoice"))[0], "pay__send_invoice");
});

// A tool's own readOnlyHint says whether it looks up or changes: it lifts the read-only twin for a lookup
// and the other for a change, when their words tie.
Deno.test("searchIndex weighs a tool's read-only annotation by what the query asks", () => {
  const index = buildIndex([
    tool("crm", "contacts", {
      description: "Contacts of the CRM",
      annotations: { readOnlyHint: false },
    }),
    tool("crm", "contact_records", {
      description: "Contacts of the CRM",
      annotations: { readOnlyHint: true },
    }),
  ]);
  assert.equal(names(searchIndex(index, "show me the contacts"))[0], "crm__contact_records");
  assert.equal(names(searchIndex(index, "delete the contacts"))[0], "crm__contacts");
});
