/**
 * An excerpt of another program's failure text that is safe to show: the secrets are redacted from the text
 * exactly as the reader will see it, and the text is cut only afterwards. Redacting before decoding misses a
 * secret written as character references (`&#x53;&#x45;…`); cutting before redacting leaves a secret's
 * start that no longer matches. So: take the scanned head, redact its raw form (a secret that decoding
 * would reshape), decode it to one plain line, redact that, drop whatever the scan limit may have cut in
 * two, and cut at a character boundary outside any `[redacted]` marker.
 * @module
 */
import { collapseSpace, cutLine, EXCERPT_CHARS, plainLine, scanHead } from "./excerpt.ts";
import { REDACTED, redactSecrets } from "./redact.ts";

/** `text` as one plain line of at most ~`maxChars` characters, `literals` and credentials redacted. */
export function redactedExcerpt(
  text: string,
  literals: readonly string[],
  maxChars: number = EXCERPT_CHARS,
): string {
  const { head, unseen } = scanHead(text);
  // A secret shows on the plain line with its whitespace collapsed: look for it that way too.
  const shown = [...new Set([...literals, ...literals.map(collapseSpace)])];
  let plain = redactSecrets(plainLine(redactSecrets(head, literals)), shown);
  if (unseen > 0) plain = dropCutTail(plain, shown);
  return cutLine(plain, maxChars, { unseen, keepWhole: REDACTED });
}

/**
 * `plain` without what the scan limit may have cut in two: its last word (it may go on past the limit,
 * and a partial credential matches no pattern), then any start of a literal left at its end (a secret
 * with spaces in it, cut after one of them).
 */
function dropCutTail(plain: string, literals: readonly string[]): string {
  let kept = plain.slice(0, Math.max(0, plain.lastIndexOf(" "))).trimEnd();
  // A literal without a space cannot go on past the word boundary the last step cut at.
  for (const literal of literals.filter((literal) => literal.includes(" "))) {
    for (let length = Math.min(literal.length - 1, kept.length); length > 0; length--) {
      if (kept.endsWith(literal.slice(0, length))) {
        kept = kept.slice(0, kept.length - length).trimEnd();
        break;
      }
    }
  }
  return kept;
}
