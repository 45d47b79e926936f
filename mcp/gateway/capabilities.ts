/**
 * What the gateway declares to each downstream server, as its client: what its own client declared, so a
 * server never asks for something nobody upstream can give (and falls back as it would when connected
 * straight to that client); and roots always, which the gateway can give itself (its workspace).
 * @module
 */
import type { ClientCapabilities } from "../../lib/mcp/sdk.ts";

/**
 * The capabilities to declare downstream for an upstream client's: form elicitation (URL mode is not
 * forwarded) and sampling as the client declared them; roots always, with `listChanged` only when the client
 * has roots (the gateway passes its list_changed on; the gateway's own workspace, answered to a rootless
 * client's servers, never changes). `hooked` entries also get form elicitation: their hooks answer without
 * the client, and what no hook answers is declined with its reason.
 */
export function downstreamCapabilities(upstream: ClientCapabilities, hooked: boolean): ClientCapabilities {
  // A rootless client's servers get the gateway's workspace (relay.ts), as a server's own cwd would be.
  const declared: ClientCapabilities = { roots: upstream.roots ? { listChanged: true } : {} };
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
