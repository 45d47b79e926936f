import assert from "node:assert/strict";
import { type DenialEvent, type ProxyOptions, startProxy } from "../../../lib/sandbox/proxy.ts";
import type { DomainAnswer, DomainQuestion } from "../../../lib/sandbox/proxy_policy.ts";
import { NotPrivateError } from "../../../lib/fs/private_dir.ts";

/** Test names resolve to loopback, where the targets listen; anything else is unknown. */
function resolve(host: string): Promise<string[]> {
  if (host.endsWith(".test")) return Promise.resolve(["127.0.0.1"]);
  return Promise.reject(new Error(`no such host ${host}`));
}

/** A loopback TCP server that sends "hello" and then echoes, upper-cased, until the client half-closes. */
function echoTarget() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const sessions: Promise<void>[] = [];
  const served = (async () => {
    for await (const conn of listener) {
      sessions.push(
        (async () => {
          await conn.write(new TextEncoder().encode("hello\n"));
          const buffer = new Uint8Array(1024);
          for (let n; (n = await conn.read(buffer)) !== null;) {
            await conn.write(
              new TextEncoder().encode(new TextDecoder().decode(buffer.subarray(0, n)).toUpperCase()),
            );
          }
          await conn.write(new TextEncoder().encode("bye\n"));
          conn.close();
        })().catch(() => {}),
      );
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    async [Symbol.asyncDispose]() {
      listener.close();
      await served;
      await Promise.all(sessions);
    },
  };
}

/** A client connection to the proxy's job port: write, read until a condition or the end. */
async function client(port: number) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  let text = "";
  let ended = false;
  const buffer = new Uint8Array(4096);
  return {
    write: (more: string) => conn.write(new TextEncoder().encode(more)),
    closeWrite: () => conn.closeWrite(),
    /** Reads until `until(text)` holds or the proxy closes; returns all text so far. */
    async read(until: (text: string) => boolean = () => false): Promise<string> {
      while (!ended && !until(text)) {
        const n = await conn.read(buffer).catch(() => null);
        if (n === null) ended = true;
        else text += new TextDecoder().decode(buffer.subarray(0, n));
      }
      return text;
    },
    /**
     * Reads the proxy's answer: an error answer up to the proxy's close; a 200 only up to its head, so a test
     * expecting a refusal fails at once when a tunnel opens instead of waiting for the idle timeout.
     */
    async answer(): Promise<string> {
      const head = await this.read((t) => t.includes("\r\n\r\n"));
      return head.startsWith("HTTP/1.1 200 ") ? head : await this.read();
    },
    get ended() {
      return ended;
    },
    [Symbol.dispose]() {
      try {
        conn.close();
      } catch {
        // Closed by the proxy.
      }
    },
  };
}

async function proxyFor(domains: string[], extra: Partial<ProxyOptions> = {}) {
  const events: DenialEvent[] = [];
  const proxy = await startProxy({ domains, resolve, onDenied: (event) => events.push(event), ...extra });
  const job = proxy.openJob("7", { transport: "tcp" });
  return {
    events,
    job,
    port: job.port!,
    async [Symbol.asyncDispose]() {
      await proxy.close();
    },
  };
}

Deno.test("proxy: CONNECT to an allowed host tunnels bytes both ways, half-close included", async () => {
  await using target = echoTarget();
  await using proxy = await proxyFor(["allowed.test"]);
  using c = await client(proxy.port);
  await c.write(`CONNECT allowed.test:${target.port} HTTP/1.1\r\nHost: allowed.test:${target.port}\r\n\r\n`);
  assert.match(await c.read((t) => t.includes("hello\n")), /^HTTP\/1\.1 200 [^\r]*\r\n\r\nhello\n$/);
  await c.write("ping");
  await c.read((t) => t.includes("PING"));
  await c.closeWrite();
  assert.match(await c.read(), /PINGbye\n$/);
  assert.ok(c.ended);
  assert.deepEqual(proxy.events, []);
});

Deno.test("proxy: a host not listed gets 403 naming it and the setting, and one denial event for its job", async () => {
  await using target = echoTarget();
  await using proxy = await proxyFor(["allowed.test"]);
  for (let i = 0; i < 2; i++) {
    using c = await client(proxy.port);
    await c.write(`CONNECT evil.test:${target.port} HTTP/1.1\r\n\r\n`);
    const answer = await c.answer();
    assert.match(answer, /^HTTP\/1\.1 403 /);
    assert.match(
      answer,
      /"evil\.test" is not in the allowed domains; the user can allow it with MCP_SANDBOX_DOMAINS/,
    );
    assert.doesNotMatch(answer, /hello/);
  }
  assert.deepEqual(proxy.events, [{
    jobId: "7",
    host: "evil.test",
    port: target.port,
    reason: "not_listed",
  }]);
  assert.deepEqual(proxy.job.deniedHosts(), ["evil.test"]);
});

Deno.test("proxy: a plain-http request is sent on in origin form, without proxy headers, and answered", async () => {
  const seen: { url: string; host: string | null; proxyAuth: string | null; connection: string | null }[] =
    [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    seen.push({
      url: request.url,
      host: request.headers.get("host"),
      proxyAuth: request.headers.get("proxy-authorization"),
      connection: request.headers.get("connection"),
    });
    return new Response("served\n");
  });
  const port = server.addr.port;
  await using proxy = await proxyFor(["plain.test"]);
  using c = await client(proxy.port);
  await c.write(
    `GET http://PLAIN.test:${port}/a/b?c=d HTTP/1.1\r\nHost: other.test\r\nProxy-Connection: keep-alive\r\n` +
      "Proxy-Authorization: Basic c2VjcmV0\r\n\r\n",
  );
  const answer = await c.read();
  assert.match(answer, /^HTTP\/1\.1 200 /);
  assert.match(answer, /served\n$/);
  assert.equal(seen.length, 1);
  assert.equal(new URL(seen[0].url).pathname + new URL(seen[0].url).search, "/a/b?c=d");
  assert.equal(seen[0].host, `plain.test:${port}`);
  assert.equal(seen[0].proxyAuth, null);
  assert.equal(seen[0].connection, "close");
});

Deno.test("proxy: `*.` entries match subdomains only, and never lead to a loopback address", async () => {
  await using target = echoTarget();
  await using proxy = await proxyFor(["*.wild.test"]);
  for (const [host, reason] of [["wild.test", "not_listed"], ["a.wild.test", "private_address"]] as const) {
    using c = await client(proxy.port);
    await c.write(`CONNECT ${host}:${target.port} HTTP/1.1\r\n\r\n`);
    assert.match(await c.answer(), /^HTTP\/1\.1 403 /, host);
    assert.equal(proxy.events.at(-1)?.reason, reason);
  }
});

Deno.test("proxy: a workspace's own hosts (its git remotes) never lead to loopback, even listed exactly", async () => {
  await using target = echoTarget();
  // A cloned repository whose remotes name a host resolving to loopback, and loopback itself: both listed
  // (the remotes go into the list), both public-only; the same names listed by the user stay reachable.
  const hostile = ["allowed.test", "127.0.0.1"];
  await using proxy = await proxyFor(hostile, { publicOnly: hostile });
  for (const host of hostile) {
    using c = await client(proxy.port);
    await c.write(`CONNECT ${host}:${target.port} HTTP/1.1\r\n\r\n`);
    assert.match(await c.answer(), /^HTTP\/1\.1 403 /, host);
    assert.equal(proxy.events.at(-1)?.reason, "private_address");
  }
  await using user = await proxyFor(hostile);
  using c = await client(user.port);
  await c.write(`CONNECT allowed.test:${target.port} HTTP/1.1\r\n\r\n`);
  assert.match(await c.read((t) => t.includes("hello")), /^HTTP\/1\.1 200 [^]*hello\n$/);
});

Deno.test("proxy: IP literals and localhost are refused unless listed exactly; other spellings are rejected", async () => {
  await using target = echoTarget();
  await using proxy = await proxyFor(["allowed.test"]);
  for (const host of ["127.0.0.1", "[::1]", "localhost"]) {
    using c = await client(proxy.port);
    await c.write(`CONNECT ${host}:${target.port} HTTP/1.1\r\n\r\n`);
    assert.match(await c.answer(), /^HTTP\/1\.1 403 /, host);
  }
  for (const host of ["0x7f.1", "2130706433", "127.1"]) {
    using c = await client(proxy.port);
    await c.write(`CONNECT ${host}:${target.port} HTTP/1.1\r\n\r\n`);
    assert.match(await c.answer(), /^HTTP\/1\.1 400 /, host);
  }
  using plain = await client(proxy.port);
  await plain.write(`GET http://0x7f.1:${target.port}/ HTTP/1.1\r\n\r\n`);
  assert.match(await plain.answer(), /^HTTP\/1\.1 403 [^]*"127\.0\.0\.1"/);
  assert.deepEqual(proxy.job.deniedHosts(), ["127.0.0.1", "::1", "localhost"]);

  await using listed = await proxyFor(["127.0.0.1"]);
  using c = await client(listed.port);
  await c.write(`CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\n\r\n`);
  assert.match(await c.read((t) => t.includes("hello")), /^HTTP\/1\.1 200 [^]*hello\n$/);
});

Deno.test("proxy: malformed and oversized requests get 400; a silent client is dropped", async () => {
  await using proxy = await proxyFor(["allowed.test"], { limits: { headBytes: 512, headTimeoutMs: 100 } });
  for (
    const request of [
      "GET /relative HTTP/1.1\r\n\r\n",
      "GET https://allowed.test/ HTTP/1.1\r\n\r\n",
      "CONNECT allowed.test HTTP/1.1\r\n\r\n",
      "CONNECT allowed.test:70000 HTTP/1.1\r\n\r\n",
      "SSH-2.0-OpenSSH_9.2\r\n\r\n",
      `GET http://allowed.test/ HTTP/1.1\r\nX: ${"a".repeat(600)}\r\n\r\n`,
    ]
  ) {
    using c = await client(proxy.port);
    await c.write(request);
    assert.match(await c.answer(), /^HTTP\/1\.1 400 /, request.slice(0, 40));
  }
  using silent = await client(proxy.port);
  await silent.write("CONNECT allowed.test:443 HTTP/1.1\r\n");
  assert.equal(await silent.read(), "");
  assert.ok(silent.ended);
});

Deno.test("proxy: connections over the job's limit get 503 while the others keep working", async () => {
  await using target = echoTarget();
  await using proxy = await proxyFor(["allowed.test"], { limits: { maxJobConnections: 1 } });
  using first = await client(proxy.port);
  await first.write(`CONNECT allowed.test:${target.port} HTTP/1.1\r\n\r\n`);
  await first.read((t) => t.includes("hello"));
  using second = await client(proxy.port);
  assert.match(await second.answer(), /^HTTP\/1\.1 503 /);
  await first.write("still");
  assert.match(await first.read((t) => t.includes("STILL")), /STILL$/);
});

Deno.test("proxy: an unknown host may ask the user; 'once' serves this job, 'deny' is remembered, a dismissal not", async () => {
  await using target = echoTarget();
  const questions: DomainQuestion[] = [];
  const answers: Record<string, DomainAnswer> = {
    "ok.test": "once",
    "no.test": "deny",
    "later.test": "dismissed",
  };
  await using proxy = await proxyFor([], {
    askLimitPerJob: 4,
    ask: (question) => {
      questions.push(question);
      return Promise.resolve(answers[question.host] ?? "deny");
    },
  });
  for (const host of ["ok.test", "ok.test", "no.test", "no.test", "later.test", "later.test"]) {
    using c = await client(proxy.port);
    await c.write(`CONNECT ${host}:${target.port} HTTP/1.1\r\n\r\n`);
    const answer = await c.read((t) => t.includes("hello"));
    assert.match(
      answer,
      { "ok.test": /^HTTP\/1\.1 200 /, "no.test": /^HTTP\/1\.1 403 [^]*declined by the user/ }[host] ??
        /^HTTP\/1\.1 403 [^]*not in the allowed domains/,
    );
  }
  assert.deepEqual(questions.map((q) => [q.jobId, q.host]), [
    ["7", "ok.test"],
    ["7", "no.test"],
    ["7", "later.test"],
    ["7", "later.test"],
  ]);
  assert.deepEqual(proxy.events.map((e) => [e.host, e.reason]), [
    ["no.test", "denied_by_user"],
    ["later.test", "not_listed"],
  ]);
});

Deno.test("proxy: one job raises at most a few questions; the rest are refused without asking", async () => {
  await using target = echoTarget();
  let asked = 0;
  await using proxy = await proxyFor([], {
    askLimitPerJob: 2,
    ask: () => (asked++, Promise.resolve("deny" as const)),
  });
  for (let i = 0; i < 5; i++) {
    using c = await client(proxy.port);
    await c.write(`CONNECT host${i}.test:${target.port} HTTP/1.1\r\n\r\n`);
    assert.match(await c.answer(), /^HTTP\/1\.1 403 /);
  }
  assert.equal(asked, 2);
  assert.deepEqual(proxy.events.map((e) => e.reason), [
    "denied_by_user",
    "denied_by_user",
    "not_listed",
    "not_listed",
    "not_listed",
  ]);
});

Deno.test("proxy: closing a job drops its open tunnels", async () => {
  await using target = echoTarget();
  await using proxy = await proxyFor(["allowed.test"]);
  using c = await client(proxy.port);
  await c.write(`CONNECT allowed.test:${target.port} HTTP/1.1\r\n\r\n`);
  await c.read((t) => t.includes("hello"));
  await proxy.job.close();
  await c.read();
  assert.ok(c.ended);
});

Deno.test("proxy: a tunnel with no byte either way for the idle limit is dropped", async () => {
  await using target = echoTarget();
  await using proxy = await proxyFor(["allowed.test"], { limits: { idleTimeoutMs: 100 } });
  using c = await client(proxy.port);
  await c.write(`CONNECT allowed.test:${target.port} HTTP/1.1\r\n\r\n`);
  await c.read((t) => t.includes("hello"));
  await c.read();
  assert.ok(c.ended);
});

Deno.test("startProxy: a socket folder others can reach is refused, not used", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.chmod(dir, 0o755);
    await assert.rejects(startProxy({ domains: [], socketDir: dir }), NotPrivateError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("proxy: a job that ends while the user is being asked closes at once", async () => {
  let answer: (value: DomainAnswer) => void = () => {};
  const asked = Promise.withResolvers<void>();
  await using proxy = await proxyFor([], {
    ask: () => (asked.resolve(), new Promise<DomainAnswer>((resolve) => answer = resolve)),
  });
  using c = await client(proxy.port);
  await c.write("CONNECT slow.test:443 HTTP/1.1\r\n\r\n");
  await asked.promise;
  await proxy.job.close();
  await c.read();
  assert.ok(c.ended);
  answer("deny");
});
