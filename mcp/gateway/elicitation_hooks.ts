/**
 * Elicitation hooks: config rules that answer a downstream server's elicitation before the client is asked.
 * An entry's `elicitation` is a list of `{ "match", "action", "content" }`; the first rule whose `match` (a
 * regular expression over the whole message) fits answers, with `accept` (and its `content`), `decline` or
 * `cancel`. No rule fits: the client is asked.
 * @module
 */
import {
  at,
  configError,
  expectNonEmptyString,
  expectObject,
  type Place,
  refuseUnknownKeys,
} from "./config_fields.ts";

/** One checked rule. */
export interface ElicitationRule {
  match: RegExp;
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}

/** What a rule answers: an elicitation result. */
export interface HookAnswer {
  action: ElicitationRule["action"];
  content?: Record<string, unknown>;
}

const ACTIONS = ["accept", "decline", "cancel"] as const;

/**
 * The longest message a rule is matched against; a longer one goes to the client. The message is the
 * server's, the expression the user's: a pattern such as `.*a.*b.*` backtracks polynomially, and the bound
 * keeps that to milliseconds.
 */
export const MAX_MATCHED_CHARS = 4_096;

/** The entry's `elicitation` list, checked; throws `ConfigError` naming the rule and key. */
export function parseElicitationRules(place: Place, raw: unknown): ElicitationRule[] {
  if (!Array.isArray(raw)) throw configError(place, "expected a list of { match, action, content } rules");
  return raw.map((item, index) => {
    const rulePlace = at(place, String(index));
    const rule = expectObject(rulePlace, item);
    refuseUnknownKeys(rulePlace, rule, ["match", "action", "content"]);
    const source = expectNonEmptyString(at(rulePlace, "match"), rule.match);
    let match: RegExp;
    try {
      match = new RegExp(`^(?:${source})$`, "s");
    } catch (error) {
      throw configError(at(rulePlace, "match"), `not a regular expression: ${(error as Error).message}`);
    }
    const action = expectNonEmptyString(at(rulePlace, "action"), rule.action);
    if (!(ACTIONS as readonly string[]).includes(action)) {
      throw configError(at(rulePlace, "action"), `expected one of ${ACTIONS.join(", ")}, got "${action}"`);
    }
    if (rule.content === undefined) return { match, action: action as ElicitationRule["action"] };
    if (action !== "accept") throw configError(at(rulePlace, "content"), `only an "accept" rule has content`);
    const content = expectObject(at(rulePlace, "content"), rule.content);
    for (const [key, value] of Object.entries(content)) {
      const isList = Array.isArray(value) && value.every((entry) => typeof entry === "string");
      if (!isList && !["string", "number", "boolean"].includes(typeof value)) {
        throw configError(
          at(at(rulePlace, "content"), key),
          "expected a string, number, boolean or list of strings",
        );
      }
    }
    return { match, action, content };
  });
}

/** The answer of the first rule matching `message`, or undefined when the client must be asked. */
export function answerByRule(rules: readonly ElicitationRule[], message: string): HookAnswer | undefined {
  if (message.length > MAX_MATCHED_CHARS) return undefined;
  const rule = rules.find((candidate) => candidate.match.test(message));
  if (!rule) return undefined;
  return rule.content ? { action: rule.action, content: rule.content } : { action: rule.action };
}
