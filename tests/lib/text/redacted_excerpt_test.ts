import assert from "node:assert/strict";
import { REDACTED } from "../../../lib/text/redact.ts";
import { redactedExcerpt } from "../../../lib/text/redacted_excerpt.ts";

const TOKEN = "SECRET-GW-TOKEN-0123456789abcdef";
const SECRETS = [`Bearer ${TOKEN}`, TOKEN];

function references(text: string): string {
  return Array.from(text, (char) => `&#x${char.codePointAt(0)!.toString(16)};`).join("");
}

Deno.test("redactedExcerpt: the cut never splits a [redacted] marker, nor a surrogate pair", () => {
  for (let pad = 280; pad < 300; pad++) {
    const excerpt = redactedExcerpt(`${"x".repeat(pad)} ${TOKEN} ${"y ".repeat(200)}`, SECRETS);
    const kept = excerpt.replace(/… \[[\d,]+ more characters cut\]$/, "");
    assert.ok(kept.endsWith("x") || kept.endsWith(REDACTED) || kept.endsWith("y"), kept.slice(-20));
  }
  const emoji = redactedExcerpt(`${"x".repeat(299)}😀${"y".repeat(50)}`, []);
  assert.ok(!/[\ud800-\udbff]…/.test(emoji), "no half of a surrogate pair before the note");
});

Deno.test("redactedExcerpt: references in plain text, a secret's whitespace collapsed, its raw form", () => {
  assert.equal(redactedExcerpt(`refused ${references(TOKEN)}`, SECRETS), `refused ${REDACTED}`);
  assert.equal(
    redactedExcerpt("sent correct\nhorse\t\tbattery staple", ["correct horse\tbattery staple"]),
    `sent ${REDACTED}`,
  );
  assert.equal(redactedExcerpt("<p>key a<b>c-secret</p>", ["a<b>c-secret"]), `key ${REDACTED}`);
});
