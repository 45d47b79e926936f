/**
 * What the gateway declares to each downstream server, as its client: only what its own client declared,
 * so a server never asks for something nobody upstream can give (and falls back as it would when connected
 * straight to that client).
 * @module
 */
import type { ClientCapabilities } from "../../lib/mcp/sdk.ts";

/**
 * The capabilities to declare downstream for an upstream client's: roots (the gateway passes list_changed
 * on), form elicitation (URL mode is not forwarded) and sampling as the client declared them. `hooked`
 * entries also get form elicitation: their hooks answer without the client, and what no hook answers is
 * declined with its reason.
 */
export function downstreamCapabilities(upstream: ClientCapabilities, hooked: boolean): ClientCapabilities {
  const declared: ClientCapabilities = {};
  if (upstream.roots) declared.roots = { listChanged: true };
  if (hooked || supportsFormElicitation(upstream)) declared.elicitation = { form: {} };
  if (upstream.sampling) declared.sampling = { ...upstream.sampling };
  return declared;
}

/** Whether the client answers form-mode elicitations (an empty `elicitation` object means form mode). */
export function supportsFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (!elicitation) return false;
  return Boolean(elicitation.form) || !elicitation.url;
}
