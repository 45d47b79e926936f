/**
 * The sandbox's question about a domain no list allows, put to the user through the MCP client's form
 * elicitation, and only when the client declared it (an empty `elicitation` capability means form mode).
 * Otherwise, and before a client connected, the domain is refused without asking.
 * @module
 */
import type { McpServerHandle } from "../../lib/mcp/server.ts";
import { userConfigDir } from "../../lib/platform/mod.ts";
import { domainAsker, type DomainForm, type ElicitAnswer } from "../../lib/sandbox/proxy_ask.ts";
import { grantsDir } from "../../lib/sandbox/proxy_grants.ts";
import type { DomainAnswer, DomainQuestion } from "../../lib/sandbox/proxy_policy.ts";

/** What the asker needs: the server (known once built), the server's env (config folder), the workspace. */
export interface AskOptions {
  handle: () => McpServerHandle | undefined;
  env: Record<string, string | undefined>;
  /** The workspace root an "always" answer is stored for (the first root). */
  workspace: () => string | undefined;
}

/** The sandbox's `ask`: the client's form elicitation when it has one, else "dismissed" (refused). */
export function clientAsker(options: AskOptions): (question: DomainQuestion) => Promise<DomainAnswer> {
  return (question) => {
    const handle = options.handle();
    if (!handle?.serverBuilt) return Promise.resolve("dismissed");
    const server = handle.server;
    const elicitation = server.getClientCapabilities()?.elicitation as
      | { form?: unknown; url?: unknown }
      | undefined;
    if (!elicitation || (!elicitation.form && elicitation.url)) return Promise.resolve("dismissed");
    const configDir = userConfigDir(options.env);
    return domainAsker({
      elicit: async (form: DomainForm) => await server.elicitInput(form as never) as ElicitAnswer,
      grantsDir: configDir ? grantsDir(configDir) : undefined,
      workspace: options.workspace(),
    })(question);
  };
}
