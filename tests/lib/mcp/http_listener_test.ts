import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "../../../lib/mcp/sdk_client.ts";
import { spawnHttp } from "../../_support/http.ts";
import {
  INITIALIZE_BODY,
  openRaw,
  postHead,
  postStatus,
  type RawConnection,
} from "../../_support/raw_http.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { waitFor } from "../../_support/poll.ts";

/** Runs the command with at most `files` open descriptors. */
const withFileLimit = (files: number) => ["sh", "-c", `ulimit -n ${files} && exec "$@"`, "sh"];

/** Opens connections until the server's log says it ran out of descriptors (or the port refuses). */
async function exhaustDescriptors(url: string, stderr: () => string): Promise<RawConnection[]> {
  const flood: RawConnection[] = [];
  // Each accepted connection takes one of the server's descriptors; the kernel queues the rest.
  for (let i = 0; i < 200 && !/Too many open files/.test(stderr()); i++) {
    try {
      flood.push(await openRaw(url));
    } catch {
      break; // refused: the port closed (Deno.serve's loop died)
    }
  }
  await waitFor("the server to run out of descriptors", () => /Too many open files/.test(stderr()));
  return flood;
}

/** Polls until a POST gets `status`, each attempt bounded so a connection the server never accepts is let go. */
async function waitForStatus(
  url: string,
  body: string,
  status: number,
  headers: Record<string, string>,
): Promise<void> {
  await waitFor(`a POST answered ${status}`, async () => {
    try {
      return await postStatus(url, body, headers, AbortSignal.timeout(2_000)) === status;
    } catch {
      return false;
    }
  }, 30_000);
}

Deno.test({
  name: "http listener: out of descriptors (EMFILE), it logs once, accepts again, and its sessions live on",
  ignore: isWindows,
}, async () => {
  await using server = await spawnHttp("hello", { wrapper: withFileLimit(64) });
  const client = new Client({ name: "before-the-flood", version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }),
  );
  const flood = await exhaustDescriptors(server.url, server.stderr);
  for (const connection of flood) await connection[Symbol.asyncDispose]();
  await waitForStatus(server.url, INITIALIZE_BODY, 200, server.headers);
  assert.equal((await client.listTools()).tools.length, 3);
  assert.equal(server.stderr().match(/cannot accept connections/g)?.length, 1, server.stderr());
  assert.doesNotMatch(server.stderr(), /unhandled rejection/);
  await client.close();
});

Deno.test({
  name: "http listener: the Deno.serve fallback is started again on its port after EMFILE",
  ignore: isWindows,
}, async () => {
  const [command, ...args] = withFileLimit(64);
  const child = new Deno.Command(command, {
    args: [...args, Deno.execPath(), "run", "--no-prompt", "--allow-net=127.0.0.1", "--allow-env", fixture()],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const reading = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
  })();
  try {
    await waitFor("the fixture to listen", () => /listening on (\S+)/.test(stderr));
    const url = /listening on (\S+)/.exec(stderr)![1];
    const flood = await exhaustDescriptors(url, () => stderr);
    for (const connection of flood) await connection[Symbol.asyncDispose]();
    await waitForStatus(url, "{}", 200, {});
    assert.equal(stderr.match(/cannot accept connections/g)?.length, 1, stderr);
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await reading;
  }
});

function fixture(): string {
  return new URL("./fixture/listen_fallback.ts", import.meta.url).pathname;
}

Deno.test("http listener: connections whose request headers never complete are closed (slowloris)", async () => {
  await using server = await spawnHttp("hello", { env: { MCP_HTTP_HEADERS_TIMEOUT_S: "1" } });
  const { host } = new URL(server.url);
  const held: RawConnection[] = [];
  for (let i = 0; i < 30; i++) {
    // Nothing at all; a request line and part of the headers; headers without their blank line.
    const text =
      ["", "POST /mcp HTTP/1.1\r\n", `POST /mcp HTTP/1.1\r\nhost: ${host}\r\naccept: */*\r\n`][i % 3];
    held.push(await openRaw(server.url, text));
  }
  // A keep-alive connection is let go the same way once its answer is done and no next request comes.
  const body = INITIALIZE_BODY;
  const kept = await openRaw(
    server.url,
    postHead(server.url, { ...server.headers, "content-length": `${body.length}` }) + body,
  );
  held.push(kept);
  await waitFor(
    "the server to close every held connection",
    () => held.every((connection) => connection.ended),
  );
  assert.match(kept.received, /^HTTP\/1\.1 200/);
  assert.ok(held.slice(0, -1).every((connection) => connection.received === ""));
  assert.equal(await postStatus(server.url, INITIALIZE_BODY, server.headers), 200);
  for (const connection of held) await connection[Symbol.asyncDispose]();
});

Deno.test("http listener: connections past MCP_HTTP_MAX_CONNECTIONS each drop the oldest idle one without the token; the server still answers", async () => {
  await using server = await spawnHttp("hello", {
    env: { MCP_HTTP_MAX_CONNECTIONS: "10", MCP_HTTP_HEADERS_TIMEOUT_S: "600" },
  });
  const held: RawConnection[] = [];
  for (let i = 0; i < 30; i++) held.push(await openRaw(server.url));
  // None sent the token: each past the tenth makes room by dropping the oldest; the last ten wait (600 s).
  await waitFor("20 connections closed by the server", () => held.filter((c) => c.ended).length === 20);
  assert.ok(held.slice(0, 20).every((connection) => connection.ended));
  assert.equal(server.stderr().match(/dropping the oldest/g)?.length, 1, server.stderr());
  assert.equal(await postStatus(server.url, INITIALIZE_BODY, server.headers), 200);
  for (const connection of held) await connection[Symbol.asyncDispose]();
});
