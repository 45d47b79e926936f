// Node preload (`--import`) for the Continue e2e: refuses every non-loopback connection the Continue CLI
// tries (at start it fetches https://api.continue.dev/cn/info with Node's own fetch, which ignores
// HTTPS_PROXY on Node 20), so a test run never reaches the network. Each refused host is appended to the
// file named by E2E_REFUSED_LOG, so the test can see that the guard was in effect.
import dns from "node:dns";
import net from "node:net";
import { appendFileSync } from "node:fs";

const LOOPBACK_NAMES = new Set(["localhost", "::1", "[::1]"]);

function isLoopback(host) {
  const name = String(host).toLowerCase();
  return LOOPBACK_NAMES.has(name) || /^127\.\d+\.\d+\.\d+$/.test(name) || name.endsWith(".localhost");
}

function refuse(host) {
  if (process.env.E2E_REFUSED_LOG) appendFileSync(process.env.E2E_REFUSED_LOG, `${host}\n`);
  return Object.assign(new Error(`e2e network guard: refused a connection to "${host}"`), {
    code: "ECONNREFUSED",
  });
}

// Host names: refuse before any DNS query leaves the machine.
const lookup = dns.lookup;
dns.lookup = function guardedLookup(host, options, callback) {
  if (isLoopback(host)) return lookup.call(this, host, options, callback);
  const done = typeof options === "function" ? options : callback;
  const error = refuse(host);
  process.nextTick(() => done(error));
};

// IP literals skip DNS: refuse them at connect (plain TCP, and TLS, whose sockets are net sockets).
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = typeof first === "object" && first !== null ? first : { host: args[1] };
  const host = options.path ? undefined : options.host;
  if (typeof host === "string" && net.isIP(host) && !isLoopback(host)) {
    const error = refuse(host);
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return connect.apply(this, args);
};
