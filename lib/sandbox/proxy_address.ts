/**
 * Which resolved addresses the proxy may connect to for a name it matched through a `*.` entry: only public
 * ones. A job must not use an allowed name whose DNS someone else controls to reach the host's own loopback
 * services, the LAN, or a cloud metadata endpoint (169.254.169.254) from outside its network namespace.
 * Plain functions; no I/O.
 * @module
 */
import { isIP } from "node:net";

/** IPv4 ranges that are not the public internet: [first address, prefix length]. */
const IPV4_SPECIAL: readonly [string, number][] = [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 reaches loopback on Linux
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

/** True when `address` (an IP literal) is a public unicast address; false for anything else. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isPublicV4(ipv4ToNumber(address));
  if (family === 6) return isPublicV6(address);
  return false;
}

function isPublicV4(value: number): boolean {
  return !IPV4_SPECIAL.some(([first, bits]) => {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return ((value & mask) >>> 0) === ipv4ToNumber(first);
  });
}

function isPublicV6(address: string): boolean {
  const words = ipv6Words(address.toLowerCase());
  if (!words) return false;
  const [w0, w1, w2, w3, w4, w5, w6, w7] = words;
  const zeroHead = w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0 && w4 === 0;
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible) reach the IPv4 address: judge that one.
  if (zeroHead && (w5 === 0xffff || w5 === 0)) {
    if (w5 === 0 && w6 === 0 && (w7 === 0 || w7 === 1)) return false; // :: and ::1
    return isPublicV4(((w6 << 16) | w7) >>> 0);
  }
  // NAT64 (64:ff9b::/96) reaches the embedded IPv4 address too.
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) {
    return isPublicV4(((w6 << 16) | w7) >>> 0);
  }
  if ((w0 & 0xfe00) === 0xfc00) return false; // unique local fc00::/7
  if ((w0 & 0xffc0) === 0xfe80) return false; // link-local fe80::/10
  if ((w0 & 0xffc0) === 0xfec0) return false; // site-local fec0::/10 (deprecated, still routed by some)
  if ((w0 & 0xff00) === 0xff00) return false; // multicast
  // 2002::/16 (6to4) embeds an IPv4 address in words 1-2.
  if (w0 === 0x2002) return isPublicV4(((w1 << 16) | w2) >>> 0);
  return true;
}

function ipv4ToNumber(address: string): number {
  return address.split(".").reduce((value, part) => ((value << 8) | Number(part)) >>> 0, 0);
}

/** The eight 16-bit words of an IPv6 literal (already checked by `isIP`), a zone id dropped. */
function ipv6Words(address: string): number[] | null {
  let text = address.replace(/%.*$/, "");
  const tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const value = ipv4ToNumber(v4[1]);
    tail.push(value >>> 16, value & 0xffff);
    text = text.slice(0, -v4[1].length);
    if (text.endsWith(":") && !text.endsWith("::")) text = text.slice(0, -1);
  }
  const [head, rest] = text.includes("::") ? text.split("::") : [text, null];
  const parse = (part: string) => part === "" ? [] : part.split(":").map((word) => parseInt(word, 16));
  const first = parse(head);
  const last = rest === null ? [] : parse(rest);
  const missing = 8 - first.length - last.length - tail.length;
  if (missing < 0 || (rest === null && missing !== 0)) return null;
  const words = [...first, ...new Array(missing).fill(0), ...last, ...tail];
  return words.some((word) => Number.isNaN(word)) ? null : words;
}
