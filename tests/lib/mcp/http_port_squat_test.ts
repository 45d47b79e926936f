/**
 * Port squatting: another local user listens on the port a client is configured for, and the client hands
 * it the token. The server that finds its port taken by another user rotates that port's token and says so;
 * and a token is per port, so one captured on one port never opens a server on another.
 * @module
 */
import assert from "node:assert/strict";
import {
  authSetup,
  childEnv,
  configHomeEnv,
  freePort,
  httpRunArgs,
  postMcp,
  spawnHttp,
} from "../../_support/http.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { pollUntil, waitFor } from "../../_support/poll.ts";
import { readOrCreateToken, tokenFilePath } from "../../../lib/mcp/http_token.ts";
import { isWindows, os } from "../../../lib/platform/mod.ts";
import { findOnPath } from "../../../lib/platform/which.ts";

/** A listener that prints each bearer token it is sent: what another user would run on the port. */
const SQUATTER = `
const listener = Deno.listen({ hostname: Deno.env.get("HOST"), port: Number(Deno.env.get("PORT")) });
console.log("listening");
for await (const conn of listener) {
  const buffer = new Uint8Array(65536);
  const count = await conn.read(buffer) ?? 0;
  const token = /authorization: *bearer +(\\S+)/i.exec(new TextDecoder().decode(buffer.subarray(0, count)));
  if (token) console.log("captured " + token[1]);
  await conn.write(new TextEncoder().encode("HTTP/1.1 200 OK\\r\\ncontent-length: 0\\r\\nconnection: close\\r\\n\\r\\n"));
  conn.close();
}`;

/**
 * Runs {@link SQUATTER} as nobody on `host`:`port`; resolves once it listens. Through setpriv (util-linux, in
 * /usr/bin) rather than runuser, which lives in /usr/sbin, off a plain user's PATH (CI's).
 */
async function squatAsNobody(host: string, port: number, denoDir: string) {
  const child = new Deno.Command("setpriv", {
    args: ["--reuid=65534", "--regid=65534", "--clear-groups", Deno.execPath(), "eval", "--quiet", SQUATTER],
    env: { HOST: host, PORT: `${port}`, DENO_DIR: denoDir, PATH: Deno.env.get("PATH") ?? "" },
    clearEnv: true,
    cwd: "/",
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stdout = "";
  let stderr = "";
  const reading = Promise.all([
    (async () => {
      for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) stdout += chunk;
    })(),
    (async () => {
      for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
    })(),
  ]);
  if (!await pollUntil(() => stdout.includes("listening"), 30_000)) {
    throw new Error(`The squatter did not start listening:\n${stderr}`);
  }
  return {
    captured: () => [...stdout.matchAll(/^captured (\S+)$/gm)].map((match) => match[1]),
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
      await reading;
    },
  };
}

/** Starts `name`-mcp on 127.0.0.1:`port` with its token file under `configHome`; its exit code and stderr. */
async function startUntilExit(name: string, configHome: string, port: number) {
  const auth = await authSetup({ configHome });
  const args = httpRunArgs(name, [], `${configHome}/continue-mcp`)
    .map((arg) => arg === "127.0.0.1:0" ? `127.0.0.1:${port}` : arg);
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    env: childEnv(auth.env),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

const AS_ROOT = isWindows || Deno.uid() !== 0 || !await findOnPath("setpriv");

Deno.test({
  name:
    "http squat: another user (nobody) holding the port gets the token; the server names the uid, rotates it, and the captured token opens nothing",
  ignore: AS_ROOT || os !== "linux",
  async fn() {
    await using home = await tempWorkspace();
    await using denoDir = await tempWorkspace();
    await Deno.chmod(denoDir.path, 0o777);
    const port = freePort();
    const file = tokenFilePath(await configHomeEnv(home.path), port)!;
    // The token a client was configured with when the server last ran on this port.
    const configured = await readOrCreateToken(file);
    let captured: string[];
    {
      await using squatter = await squatAsNobody("127.0.0.1", port, denoDir.path);
      await postMcp(`http://127.0.0.1:${port}/mcp`, { authorization: `Bearer ${configured}` });
      await waitFor("the squatter to capture the token", () => squatter.captured().length > 0);
      captured = squatter.captured();
      const { code, stderr } = await startUntilExit("shell", home.path, port);
      assert.equal(code, 2);
      assert.match(
        stderr,
        new RegExp(
          `^\\[error\\] WARNING: Cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use by another user ` +
            `\\(uid 65534 on 127\\.0\\.0\\.1\\)\\. Any client that connected there sent it this port's token, so ` +
            `".*http-token-${port}" now holds a new token and the old one opens nothing\\. `,
        ),
      );
      assert.equal(stderr.split("\n").length, 2, stderr);
    }
    assert.deepEqual(captured, [configured]);
    const rotated = (await Deno.readTextFile(file)).trim();
    assert.notEqual(rotated, configured);
    assert.equal((await Deno.lstat(file)).mode! & 0o777, 0o600);
    // Once the squatter is gone, the real server on that port, and one on another port, refuse the capture.
    await using again = await spawnHttp("shell", {
      auth: { configHome: home.path },
      listen: `127.0.0.1:${port}`,
    });
    assert.equal(again.headers.authorization, `Bearer ${rotated}`);
    assert.equal((await postMcp(again.url, { authorization: `Bearer ${configured}` })).status, 401);
    assert.equal((await postMcp(again.url, again.headers)).status, 200);
    await using other = await spawnHttp("shell", { auth: { configHome: home.path } });
    assert.equal((await postMcp(other.url, { authorization: `Bearer ${configured}` })).status, 401);
  },
});

Deno.test({
  name:
    "http squat: another user listening on [::1] at our port is named at start, and the token is rotated before use",
  ignore: AS_ROOT || os !== "linux",
  async fn() {
    await using home = await tempWorkspace();
    await using denoDir = await tempWorkspace();
    await Deno.chmod(denoDir.path, 0o777);
    const port = freePort();
    const file = tokenFilePath(await configHomeEnv(home.path), port)!;
    const configured = await readOrCreateToken(file);
    await using _squatter = await squatAsNobody("::1", port, denoDir.path);
    await using server = await spawnHttp("shell", {
      auth: { configHome: home.path },
      listen: `127.0.0.1:${port}`,
    });
    assert.match(
      server.stderr(),
      new RegExp(`WARNING: another user \\(uid 65534 on \\[::1\\]\\) also listens on port ${port}: `),
    );
    assert.notEqual(server.headers.authorization, `Bearer ${configured}`);
    assert.equal((await postMcp(server.url, { authorization: `Bearer ${configured}` })).status, 401);
    assert.equal((await postMcp(server.url, server.headers)).status, 200);
  },
});

Deno.test({
  name: "http squat: a port held by a process of this user is only in use: the token is kept",
  ignore: isWindows,
}, async () => {
  await using home = await tempWorkspace();
  using held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = held.addr;
  const file = tokenFilePath(await configHomeEnv(home.path), port)!;
  const configured = await readOrCreateToken(file);
  // shell-mcp may run `cat`, so it sees who listens (on Linux); hello-mcp may not, and says it cannot tell.
  const shell = await startUntilExit("shell", home.path, port);
  assert.equal(shell.code, 2);
  assert.equal(
    shell.stderr,
    os === "linux"
      ? `[error] Cannot listen on 127.0.0.1:${port}: the port is in use (by a process of this user)\n`
      : `[error] Cannot listen on 127.0.0.1:${port}: the port is in use; this server cannot see by whom; if ` +
        `another user may hold it, delete "${file}": clients that connected there sent it their token\n`,
  );
  const hello = await startUntilExit("hello", home.path, port);
  assert.equal(hello.code, 2);
  assert.equal(
    hello.stderr,
    `[error] Cannot listen on 127.0.0.1:${port}: the port is in use; this server cannot see by whom; if ` +
      `another user may hold it, delete "${file}": clients that connected there sent it their token\n`,
  );
  assert.equal((await Deno.readTextFile(file)).trim(), configured);
});

Deno.test("http squat: each port has its own token, so one captured on one port opens no server on another", async () => {
  // The one file every port used before is left alone, and its clients are told why they get 401.
  await using home = await tempWorkspace({ "continue-mcp/http-token": `${"x".repeat(43)}\n` });
  if (!isWindows) await Deno.chmod(home.join("continue-mcp"), 0o700);
  await using first = await spawnHttp("hello", { auth: { configHome: home.path } });
  assert.match(first.stderr(), /"[^"]*http-token" is no longer read \(each port has its own token file\)/);
  assert.notEqual(first.headers.authorization, `Bearer ${"x".repeat(43)}`);
  await using second = await spawnHttp("hello", { auth: { configHome: home.path } });
  assert.notEqual(first.headers.authorization, second.headers.authorization);
  assert.equal((await postMcp(second.url, first.headers)).status, 401);
  assert.equal((await postMcp(first.url, second.headers)).status, 401);
  assert.equal((await postMcp(first.url, first.headers)).status, 200);
});
