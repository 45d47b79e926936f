/**
 * Asking the user about a domain no list allows, through the MCP client's form elicitation: the form, how
 * its answer reads, and the proxy's `ask` hook built from the server's elicit function, which stores an
 * "always" answer in the user's config folder (proxy_grants.ts). Only the client's user answers: no tool
 * argument, job or workspace file can.
 * @module
 */
import type { DomainAnswer, DomainQuestion } from "./proxy_policy.ts";
import { addGrant } from "./proxy_grants.ts";
import { log } from "../log.ts";

/** A form elicitation request (`elicitation/create`, form mode). */
export interface DomainForm {
  message: string;
  requestedSchema: {
    type: "object";
    properties: Record<string, Record<string, unknown>>;
    required: string[];
  };
}

/** The client's answer to a form elicitation. */
export interface ElicitAnswer {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}

const CHOICES: [DomainAnswer, string][] = [
  ["once", "Allow for this command"],
  ["always", "Always allow in this workspace"],
  ["deny", "Deny"],
];

/** The form asking whether jobs may reach `question.host`. */
export function domainForm(question: DomainQuestion): DomainForm {
  return {
    message: `A sandboxed shell command (job ${question.jobId}) wants to connect to "${question.host}" ` +
      `(port ${question.port}), which is not in the allowed domains. Allow it?`,
    requestedSchema: {
      type: "object",
      properties: {
        answer: {
          type: "string",
          title: "Network access",
          enum: CHOICES.map(([value]) => value),
          enumNames: CHOICES.map(([, title]) => title),
        },
      },
      required: ["answer"],
    },
  };
}

/** Reads the client's answer: an accepted choice, else "deny" (declined) or "dismissed" (cancelled). */
export function answerOf(result: ElicitAnswer): DomainAnswer {
  if (result.action === "decline") return "deny";
  if (result.action !== "accept") return "dismissed";
  const answer = result.content?.answer;
  return CHOICES.some(([value]) => value === answer) ? answer as DomainAnswer : "dismissed";
}

/**
 * The proxy's `ask` hook: puts {@link domainForm} to the user through `elicit` (the server's form
 * elicitation; pass it only when the client declared that capability) and, for "always", stores the host
 * for `workspace` under `grantsDir` (proxy_grants.ts; read them back into the domains at the next start).
 */
export function domainAsker(options: {
  elicit: (form: DomainForm) => Promise<ElicitAnswer>;
  grantsDir?: string;
  workspace?: string;
}): (question: DomainQuestion) => Promise<DomainAnswer> {
  return async (question) => {
    const answer = answerOf(await options.elicit(domainForm(question)));
    if (answer === "always" && options.grantsDir && options.workspace) {
      // The answer holds for this server run even when it cannot be stored for the next.
      await addGrant(options.grantsDir, options.workspace, question.host).catch((error) =>
        log.error(`Cannot store the allowed domain "${question.host}" for later runs`, error)
      );
    }
    return answer;
  };
}
