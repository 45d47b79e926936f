/**
 * Credentials out of text that leaves the process (a tool result, an error, a log line): the exact values a
 * caller knows are secret, then the common shapes of credentials (bearer and basic credentials, API-key
 * prefixes, `password=`-style pairs in query strings, JSON and headers, URL userinfo, private keys).
 * Redacting twice changes nothing: the marker matches no pattern. Every pass is linear in the text, which
 * another program wrote: no pattern can start at many places of one run of characters and scan to its end
 * from each (`\b[\w.-]*?token` over `a-a-a-…` took 19 s for 40 KB).
 * @module
 */

/** What a secret is replaced with. */
export const REDACTED = "[redacted]";

/** Literals shorter than this are not replaced: a two-character value would shred ordinary text. */
const MIN_LITERAL = 4;

/**
 * The name and separator of a `name=value`, `name: value` or `"name": "value"` pair. The name is a whole
 * run of `[\w.-]` (the lookbehind lets a match start only where a run starts), so each run is scanned
 * once; whether the name is a credential's is asked of its end afterwards ({@link SECRET_NAME_END}).
 */
const PAIR_NAME = /(["']?)(?<![\w.-])([\w.-]+)\1(\s*[:=]\s*)/g;

/** Names that carry credentials, as the end of a pair's name (`X-Api-Key`, `refresh_token`). */
const SECRET_NAME_END = new RegExp(
  String.raw`(?:api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|client[_-]?secret|` +
    String.raw`secret|token|password|passwd|pwd|credentials?|authorization|session[_-]?id|cookie)$`,
  "i",
);

/** The value of a pair, read where its separator ends (it is what gets replaced). */
const PAIR_VALUE = /(["']?)(?:(?:Bearer|Basic|Token)\s+)?[^\s"'&,;<>(){}\[\]]+/iy;

/** Token shapes that are credentials wherever they appear. */
const SHAPES: readonly RegExp[] = [
  /\b[sr]k[-_][A-Za-z0-9][A-Za-z0-9_-]{7,}/g, // OpenAI, Anthropic, Stripe secret and restricted keys
  /\b(?:gh[pousr]|github_pat)_[A-Za-z0-9_]{10,}/g, // GitHub
  /\bglpat-[A-Za-z0-9_-]{10,}/g, // GitLab
  /\bxox[a-z]-[A-Za-z0-9-]{6,}/g, // Slack
  /\b(?:AKIA|ASIA)[A-Z0-9]{12,}\b/g, // AWS access key ids
  /\bAIza[A-Za-z0-9_-]{20,}/g, // Google API keys
  /\bnpm_[A-Za-z0-9]{20,}/g, // npm
  // JWTs. The first part stops before another `-eyJ`, where the next try starts: tries never overlap.
  /\beyJ(?:[A-Za-z0-9_]|-(?!eyJ)){5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
];

/** `Bearer <token>` and `Basic <base64>`; a lowercase word after it is prose ("Bearer token required"). */
const SCHEME = /\b(Bearer|Basic)(\s+)([A-Za-z0-9._~+/-]+=*)/gi;

/** `scheme://user:password@host`: the userinfo goes. Found from its `://`, so a run is scanned once. */
const USERINFO = /(?<=[a-z0-9+.-])(:\/\/)[^\s/?#@"'<>]+@/gi;

/**
 * `text` with every literal in `literals` (and its JSON- and URL-encoded forms) replaced, then every
 * credential shape. Longer literals go first, so `Bearer abc` goes whole before `abc` would.
 */
export function redactSecrets(text: string, literals: readonly string[] = []): string {
  let out = text;
  for (const literal of literalForms(literals)) out = out.replaceAll(literal, REDACTED);
  out = redactPairs(out);
  out = out.replace(SCHEME, (whole, scheme, space, value: string) => {
    return /^[a-z]+$/.test(value) && value.length < 20 ? whole : `${scheme}${space}${REDACTED}`;
  });
  for (const shape of SHAPES) out = out.replace(shape, REDACTED);
  return out.replace(USERINFO, `$1${REDACTED}@`);
}

/** `text` with the value of every credential-named pair replaced, its name, quotes and separator kept. */
function redactPairs(text: string): string {
  const names = new RegExp(PAIR_NAME);
  const value = new RegExp(PAIR_VALUE);
  const out: string[] = [];
  let done = 0;
  for (let pair = names.exec(text); pair; pair = names.exec(text)) {
    // A credential name is at most 13 characters: its end is all that needs testing.
    if (!SECRET_NAME_END.test(pair[2].slice(-16))) continue;
    value.lastIndex = names.lastIndex;
    const found = value.exec(text);
    if (!found) continue;
    out.push(text.slice(done, names.lastIndex), found[1], REDACTED);
    done = names.lastIndex = value.lastIndex;
  }
  out.push(text.slice(done));
  return out.join("");
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
