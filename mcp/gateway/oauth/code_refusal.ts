/**
 * What an authorization server said when it refused an authorization code. The SDK's `auth()` answers an
 * `invalid_grant` by sending the same code again, so the user would see the second refusal (`unknown code`:
 * a code is good for one use) instead of the first; the gateway reads the first from the response itself.
 * @module
 */
import { failureText } from "../redact.ts";

/** Whether a fetch is the token request trading an authorization code. */
export function isCodeExchange(init: RequestInit | undefined): boolean {
  const body = init?.body;
  return body instanceof URLSearchParams && body.get("grant_type") === "authorization_code";
}

/** `invalid_grant (PKCE verification failed)`, or `HTTP 500: <excerpt>` for a body that is no OAuth error. */
export async function refusalText(response: Response, secrets: readonly string[]): Promise<string> {
  const body = await response.text();
  try {
    const { error, error_description: description } = JSON.parse(body);
    if (typeof error === "string") {
      const detail = typeof description === "string" && description ? ` (${description})` : "";
      return failureText(`${error}${detail}`, secrets);
    }
  } catch {
    // Not JSON: the status and an excerpt say more than nothing.
  }
  return failureText(`HTTP ${response.status}: ${body}`, secrets);
}
