/** A server whose token file cannot be trusted or made refuses to start: exit 2 and one line saying why. */
import assert from "node:assert/strict";
import { authSetup, childEnv, freePort, httpRunArgs } from "../../_support/http.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

/**
 * Starts hello-mcp over HTTP on `port` with its token file under `configHome`; resolves to its exit code
 * and stderr.
 */
async function startHello(
  configHome: string,
  options: { argv?: string[]; port?: number } = {},
): Promise<{ code: number; stderr: string }> {
  const auth = await authSetup({ configHome });
  const tokenDir = `${configHome}/continue-mcp`;
  const argv = options.argv ?? httpRunArgs("hello", [], tokenDir);
  const output = await new Deno.Command(Deno.execPath(), {
    args: argv.map((arg) => arg === "127.0.0.1:0" ? `127.0.0.1:${options.port ?? 0}` : arg),
    env: childEnv(auth.env),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

Deno.test("http token: a planted token folder other users can write refuses to start", {
  ignore: isWindows,
}, async () => {
  await using home = await tempWorkspace({ "continue-mcp/http-token-0": "x".repeat(43) });
  await Deno.chmod(home.join("continue-mcp"), 0o777);
  await Deno.chmod(home.join("continue-mcp", "http-token-0"), 0o600);
  const { code, stderr } = await startHello(home.path);
  assert.equal(code, 2);
  assert.equal(
    stderr,
    `[error] Cannot use the HTTP token: the folder "${home.join("continue-mcp")}" has mode 777, open to ` +
      "other users: check nothing was read or planted, then chmod 700 it\n",
  );
});

Deno.test("http token: a symlink planted as the token file refuses to start, and nothing is written through it", async () => {
  await using home = await tempWorkspace();
  await Deno.mkdir(home.join("continue-mcp"), { mode: 0o700 });
  const port = freePort();
  await Deno.symlink(home.join("target"), home.join("continue-mcp", `http-token-${port}`), { type: "file" });
  const { code, stderr } = await startHello(home.path, { port });
  assert.equal(code, 2);
  assert.match(
    stderr,
    /^\[error\] Cannot use the HTTP token: the file ".*http-token-\d+" is a symbolic link: remove it\n$/,
  );
  await assert.rejects(Deno.lstat(home.join("target")), Deno.errors.NotFound);
});

Deno.test("http token: without the permissions the token file needs, the refusal names the flag to add", async () => {
  await using home = await tempWorkspace();
  const noWrite = httpRunArgs("hello").filter((arg) => !arg.startsWith("--allow-write"));
  const withoutWrite = await startHello(home.path, { argv: noWrite });
  assert.equal(withoutWrite.code, 2);
  assert.match(
    withoutWrite.stderr,
    /^\[error\] Cannot create the HTTP token folder ".*continue-mcp": HTTP mode needs --allow-write=.*continue-mcp for it, or set MCP_HTTP_TOKEN\n$/,
  );
  if (isWindows) return; // No uid to check there.
  const noSys = httpRunArgs("hello", [], home.join("continue-mcp")).filter((arg) =>
    arg !== "--allow-sys=uid"
  );
  const withoutSys = await startHello(home.path, { argv: noSys });
  assert.equal(withoutSys.code, 2);
  assert.match(withoutSys.stderr, /HTTP mode needs --allow-sys=uid, or set MCP_HTTP_TOKEN\n$/);
});
