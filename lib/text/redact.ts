/**
 * Credentials out of text that leaves the process (a tool result, an error, a log line): the exact values a
 * caller knows are secret, then the common shapes of credentials (bearer and basic credentials, API-key
 * prefixes, `password=`-style pairs in query strings, JSON and headers, URL userinfo, private keys).
 * Redacting twice changes nothing: the marker matches no pattern.
 * @module
 */

/** What a secret is replaced with. */
export const REDACTED = "[redacted]";

/** Literals shorter than this are not replaced: a two-character value would shred ordinary text. */
const MIN_LITERAL = 4;

/** Credential-bearing names in `name=value`, `name: value` and `"name": "value"` (the value is replaced). */
const PAIR = new RegExp(
  String.raw`(["']?)\b([\w.-]*?(?:api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|` +
    String.raw`client[_-]?secret|secret|token|password|passwd|pwd|credentials?|authorization|` +
    String
      .raw`session[_-]?id|cookie))\1(\s*[:=]\s*)(["']?)((?:(?:Bearer|Basic|Token)\s+)?[^\s"'&,;<>(){}\[\]]+)`,
  "gi",
);

/** Token shapes that are credentials wherever they appear. */
const SHAPES: readonly RegExp[] = [
  /\b[sr]k[-_][A-Za-z0-9][A-Za-z0-9_-]{7,}/g, // OpenAI, Anthropic, Stripe secret and restricted keys
  /\b(?:gh[pousr]|github_pat)_[A-Za-z0-9_]{10,}/g, // GitHub
  /\bglpat-[A-Za-z0-9_-]{10,}/g, // GitLab
  /\bxox[a-z]-[A-Za-z0-9-]{6,}/g, // Slack
  /\b(?:AKIA|ASIA)[A-Z0-9]{12,}\b/g, // AWS access key ids
  /\bAIza[A-Za-z0-9_-]{20,}/g, // Google API keys
  /\bnpm_[A-Za-z0-9]{20,}/g, // npm
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, // JWTs
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
];

/** `Bearer <token>` and `Basic <base64>`; a lowercase word after it is prose ("Bearer token required"). */
const SCHEME = /\b(Bearer|Basic)(\s+)([A-Za-z0-9._~+/-]+=*)/gi;

/** `scheme://user:password@host`: the userinfo goes. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;

/**
 * `text` with every literal in `literals` (and its JSON- and URL-encoded forms) replaced, then every
 * credential shape. Longer literals go first, so `Bearer abc` goes whole before `abc` would.
 */
export function redactSecrets(text: string, literals: readonly string[] = []): string {
  let out = text;
  for (const literal of literalForms(literals)) out = out.replaceAll(literal, REDACTED);
  out = out.replace(PAIR, (_, quote, name, separator, valueQuote) => {
    return `${quote}${name}${quote}${separator}${valueQuote}${REDACTED}`;
  });
  out = out.replace(SCHEME, (whole, scheme, space, value: string) => {
    return /^[a-z]+$/.test(value) && value.length < 20 ? whole : `${scheme}${space}${REDACTED}`;
  });
  for (const shape of SHAPES) out = out.replace(shape, REDACTED);
  return out.replace(USERINFO, `$1${REDACTED}@`);
}

/** `text` with only the literals replaced: for content whose credential-like words may be real data. */
export function redactLiterals(text: string, literals: readonly string[]): string {
  let out = text;
  for (const literal of literalForms(literals)) out = out.replaceAll(literal, REDACTED);
  return out;
}

/** Each literal as written, as inside a JSON string, and URL-encoded; longest first, short ones dropped. */
function literalForms(literals: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const literal of literals) {
    if (literal.length < MIN_LITERAL) continue;
    forms.add(literal);
    forms.add(JSON.stringify(literal).slice(1, -1));
    forms.add(encodeURIComponent(literal));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}
