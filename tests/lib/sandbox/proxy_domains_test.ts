import assert from "node:assert/strict";
import {
  DEFAULT_DOMAINS,
  domainList,
  matchDomain,
  normalizeHost,
  splitDomains,
} from "../../../lib/sandbox/proxy_domains.ts";
import { isPublicAddress } from "../../../lib/sandbox/proxy_address.ts";
import { refusalNote } from "../../../lib/sandbox/proxy_refusal.ts";

Deno.test("matchDomain: exact names, `*.` subdomains only, case and a final dot ignored", () => {
  const { list, invalid } = domainList(["Example.COM", "*.Registry.Test.", "10.0.0.5", "[::1]"]);
  assert.deepEqual(invalid, []);
  const cases: [string, ReturnType<typeof matchDomain>][] = [
    ["example.com", "exact"],
    ["www.example.com", null],
    ["registry.test", null],
    ["a.registry.test", "wildcard"],
    ["a.b.registry.test", "wildcard"],
    ["evilregistry.test", null],
    ["registry.test.evil.com", null],
    ["10.0.0.5", "exact"],
    ["::1", "exact"],
    ["10.0.0.6", null],
  ];
  for (const [host, expected] of cases) {
    assert.equal(matchDomain(normalizeHost(host)!, list), expected, host);
  }
});

Deno.test("domainList: entries that are no domain are reported, never widened", () => {
  const { list, invalid } = domainList([
    "*",
    "*.com",
    "*.*.example.com",
    "exa mple.com",
    "http://x.com",
    "ok.com",
  ]);
  assert.deepEqual(invalid, ["*", "*.com", "*.*.example.com", "exa mple.com", "http://x.com"]);
  assert.deepEqual([...list.exact], ["ok.com"]);
  assert.deepEqual(list.suffixes, []);
});

Deno.test("normalizeHost: numeric spellings of addresses are refused; brackets and case are undone", () => {
  for (const host of ["0x7f.1", "127.1", "2130706433", "0177.0.0.1", "1.2.3.0x4", "", "a..b", "-a.com"]) {
    assert.equal(normalizeHost(host), null, host);
  }
  assert.equal(normalizeHost("[::FFFF:127.0.0.1]"), "::ffff:127.0.0.1");
  assert.equal(normalizeHost("GitHub.com."), "github.com");
  assert.equal(normalizeHost("[github.com]"), null);
});

Deno.test("isPublicAddress: loopback, private, link-local, metadata and their IPv6 disguises are not public", () => {
  for (
    const address of [
      "127.0.0.1",
      "0.0.0.0",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::127.0.0.1",
      "64:ff9b::a9fe:a9fe",
      "2002:c0a8:101::1",
      "fd00::1",
      "fe80::1%eth0",
      "ff02::1",
      "not an address",
    ]
  ) assert.equal(isPublicAddress(address), false, address);
  for (const address of ["140.82.112.3", "172.32.0.1", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"]) {
    assert.equal(isPublicAddress(address), true, address);
  }
});

Deno.test("DEFAULT_DOMAINS: every entry is a valid exact name (no wildcard opens a whole CDN)", () => {
  const { list, invalid } = domainList(DEFAULT_DOMAINS);
  assert.deepEqual(invalid, []);
  assert.equal(list.suffixes.length, 0);
  for (
    const host of [
      "registry.npmjs.org",
      "pypi.org",
      "files.pythonhosted.org",
      "index.crates.io",
      "github.com",
    ]
  ) {
    assert.equal(matchDomain(host, list), "exact", host);
  }
});

Deno.test("splitDomains: commas, semicolons and white space separate entries", () => {
  assert.deepEqual(splitDomains(" a.com,*.b.com; c.com\nd.com "), ["a.com", "*.b.com", "c.com", "d.com"]);
});

Deno.test("refusalNote: one line naming a few hosts and the setting", () => {
  assert.equal(refusalNote([]), null);
  assert.equal(
    refusalNote(["evil.com"]),
    '[sandbox] refused a connection to "evil.com" (not in the allowed domains); ' +
      "the user can allow domains with MCP_SANDBOX_DOMAINS",
  );
  const many = refusalNote(["a.com", "b.com", "c.com", "d.com", "e.com"])!;
  assert.match(many, /^\[sandbox\] refused connections to "a\.com", "b\.com", "c\.com" and 2 more /);
  assert.doesNotMatch(many, /\n/);
});
