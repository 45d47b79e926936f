import assert from "node:assert/strict";
import {
  answerByRule,
  MAX_MATCHED_CHARS,
  parseElicitationRules,
} from "../../../mcp/gateway/elicitation_hooks.ts";
import { evalFinishes, moduleUrl } from "../../_support/finishes.ts";

const place = { file: "gateway.jsonc", path: ["mcpServers", "db", "elicitation"] };

Deno.test("elicitation hooks: a message longer than the bound goes to the client, whatever the rules", () => {
  const rules = parseElicitationRules(place, [{ match: ".*", action: "decline" }]);
  assert.deepEqual(answerByRule(rules, "x".repeat(MAX_MATCHED_CHARS)), { action: "decline" });
  assert.equal(answerByRule(rules, "x".repeat(MAX_MATCHED_CHARS + 1)), undefined);
});

// The message is the server's, the expression the user's: `.*a.*b.*c` backtracks polynomially, 1 MB of `a`
// would run for hours in the event loop. The child is killed after 20 s (evalFinishes).
Deno.test("elicitation hooks: a 1 MB message against a backtracking rule is answered at once", async () => {
  const hooks = moduleUrl("mcp/gateway/elicitation_hooks.ts");
  const run = await evalFinishes(`
    import { answerByRule, parseElicitationRules } from ${JSON.stringify(hooks)};
    const rules = parseElicitationRules(${JSON.stringify(place)}, [{ match: ".*a.*b.*c", action: "accept" }]);
    console.log(String(answerByRule(rules, "a".repeat(1_000_000))));
  `);
  assert.ok(run.finished, "matching did not finish in 20 s");
  assert.equal(run.stdout.trim(), "undefined");
});
