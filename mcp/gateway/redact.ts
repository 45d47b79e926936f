/**
 * What the gateway lets out of a downstream server's text, to the agent or to its log. A server's secrets
 * are what the gateway gives it: the values of its entry's `headers` and `env`, its OAuth client secret and
 * tokens, credentials in its URL. Two rules:
 * - Failures (error messages, connect reasons, stderr lines, exception texts, log messages): a few hundred
 *   characters of plain text, with those secrets and every credential shape redacted.
 * - Data (tool results, tool lists, instructions, what a server asks the client): those secrets redacted,
 *   nothing else touched, since a file read through a server may hold `password=` for real.
 * @module
 */
import { capQuote } from "../../lib/text/cap.ts";
import { redactLiterals, redactSecrets } from "../../lib/text/redact.ts";
import { redactedExcerpt } from "../../lib/text/redacted_excerpt.ts";
import type { ServerConfig } from "./types.ts";

/** The most a reason or error built around an excerpt may be: the excerpt plus the gateway's own words. */
export const REASON_CHARS = 1_000;

/** Names whose values are secret whatever they look like. */
const SECRET_NAME = /key|token|secret|pass|pwd|auth|cookie|credential|session|signature|private|cert/i;

/** The literal secrets of one entry: what must never come back out of its server. */
export function secretsOf(config: ServerConfig): string[] {
  const spec = config.transport;
  if (spec.kind === "builtin") return [];
  const secrets: string[] = [];
  const add = (name: string, value: string) => {
    if (!isSecretValue(name, value)) return;
    secrets.push(value);
    // `Bearer abc`: the bare credential shows up alone too (an echoed token, a JSON field).
    const credential = value.match(/^(?:Bearer|Basic|Token)\s+(\S{4,})$/i)?.[1];
    if (credential) secrets.push(credential);
  };
  if (spec.kind === "stdio") {
    for (const [name, value] of Object.entries(spec.env)) add(name, value);
    return secrets;
  }
  for (const [name, value] of Object.entries(spec.headers)) add(name, value);
  if (spec.oauth.clientSecret) secrets.push(spec.oauth.clientSecret);
  const url = URL.parse(spec.url);
  if (url?.password) secrets.push(decodeURIComponent(url.password));
  if (url?.username) secrets.push(decodeURIComponent(url.username));
  for (const [name, value] of url?.searchParams ?? []) add(name, value);
  return secrets;
}

/**
 * Whether a configured value counts as a secret: any value of a secret-sounding name; otherwise any value
 * of 8 characters or more except what is plainly not secret and common in ordinary text (a path, a URL
 * without credentials, a number, a single word), which redacted would shred every result.
 */
export function isSecretValue(name: string, value: string): boolean {
  if (value.length < 4) return false;
  if (SECRET_NAME.test(name)) return true;
  if (value.length < 8) return false;
  return !(/^(?:[/~.]|[A-Za-z]:[\\/])/.test(value) || /^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$/i.test(value) ||
    /^[\d.,:_+-]+$/.test(value) || /^[A-Za-z]+$/.test(value));
}

/** A downstream failure's text as the agent and the log may see it: short, plain, redacted. */
export function failureText(text: string, secrets: readonly string[]): string {
  // Decoded to what the reader sees, then redacted, then cut: no encoding hides a secret, no cut halves one.
  return redactedExcerpt(text, secrets);
}

/**
 * A reason or error that holds downstream text, however it was built: redacted, and never longer than
 * {@link REASON_CHARS} (the last guard; its downstream part was already cut to an excerpt).
 */
export function boundedReason(text: string, secrets: readonly string[]): string {
  return capQuote(redactSecrets(text, secrets), REASON_CHARS);
}

/** Every string in `value` (a result, a tool, a request) with the secrets replaced; nothing else changes. */
export function redactData<T>(value: T, secrets: readonly string[]): T {
  return secrets.length ? walk(value, (text) => redactLiterals(text, secrets)) as T : value;
}

/** Every string in a downstream log message redacted like a failure, but not cut (the client asked for it). */
export function redactDiagnostic<T>(value: T, secrets: readonly string[]): T {
  return walk(value, (text) => redactSecrets(text, secrets)) as T;
}

function walk(value: unknown, change: (text: string) => string): unknown {
  if (typeof value === "string") return change(value);
  if (Array.isArray(value)) return value.map((item) => walk(item, change));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, change)]));
}
