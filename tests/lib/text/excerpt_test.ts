import assert from "node:assert/strict";
import { htmlToText, plainExcerpt } from "../../../lib/text/excerpt.ts";

Deno.test("plainExcerpt: short text passes, whitespace and control characters collapse", () => {
  assert.equal(
    plainExcerpt("  connection\nrefused\t\x1b[31m(ECONNREFUSED)  "),
    "connection refused [31m(ECONNREFUSED)",
  );
  assert.equal(plainExcerpt("a <tool> b < c"), "a <tool> b < c", "prose with angle brackets is not HTML");
});

Deno.test("plainExcerpt: a long text is cut, saying how much", () => {
  const text = "word ".repeat(1_000);
  const excerpt = plainExcerpt(text, 100);
  assert.ok(excerpt.length < 140, excerpt);
  assert.match(excerpt, /^word word .*… \[4,[89]\d\d more characters cut\]$/);
});

Deno.test("plainExcerpt: an HTML error page becomes its visible text", () => {
  const page = "<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>p{color:red}</style>" +
    "<script>var x = '<p>not shown</p>';</script></head><body><!-- note --><h1>Bad&nbsp;Gateway</h1>" +
    "<p>The upstream &amp; cache &#8212; failed &#x21;</p></body></html>";
  assert.equal(plainExcerpt(page), "502 Bad Gateway Bad Gateway The upstream & cache — failed !");
});

// Each pass is linear: a backtracking one would take minutes over this input, and the run would hang here.
Deno.test("plainExcerpt: 200 KB of hostile markup stays small", () => {
  for (
    const hostile of [
      "<p" + "<a".repeat(100_000),
      "<script>" + "</script".repeat(20_000),
      "<!--".repeat(50_000),
    ]
  ) {
    const excerpt = plainExcerpt(`<html>${hostile}`);
    assert.ok(excerpt.length < 400, excerpt);
  }
});

Deno.test("htmlToText: an unterminated script drops the rest", () => {
  assert.equal(htmlToText("<p>a</p><script>b").replace(/\s+/g, " ").trim(), "a");
});
