/**
 * HTTP mode's token never reaches a child process: a shell job over HTTP, the gateway's in-process shell and
 * a stdio downstream of the gateway all run without `MCP_HTTP_TOKEN`, even one the gateway config names.
 * @module
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { connectHttpClient, spawnHttp } from "../../_support/http.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

const FIXTURE = fileURLToPath(new URL("../../mcp/gateway/_servers/fixture.ts", import.meta.url));
const ENV_COMMAND = isWindows ? 'Get-ChildItem env: | ForEach-Object { "$($_.Name)=$($_.Value)" }' : "env";

function textOf(result: Record<string, unknown>): string {
  return (result.content as { text?: string }[]).map((part) => part.text ?? "").join("\n");
}

Deno.test("http child env: a shell job started over HTTP does not see MCP_HTTP_TOKEN", async () => {
  await using workspace = await tempWorkspace();
  await using server = await spawnHttp("shell", {
    cwd: workspace.path,
    env: { MCP_WORKSPACE: workspace.path, MCP_HTTP_SESSION_IDLE_S: "60" },
  });
  const { client } = await connectHttpClient(server.url, server.headers);
  const output = textOf(await client.callTool({ name: "shell_run", arguments: { command: ENV_COMMAND } }));
  await client.close();
  assert.match(output, /^PATH=/im, "the job got the server's environment");
  assert.doesNotMatch(output, /MCP_HTTP_/i);
  assert.ok(!output.includes(server.headers.authorization.slice("Bearer ".length)));
});

Deno.test("http child env: the gateway over HTTP hands the token to neither its shell's jobs nor a downstream", async () => {
  await using workspace = await tempWorkspace();
  const envFile = workspace.join("downstream-env.txt");
  const config = {
    mcpServers: {
      sh: { builtin: "shell" },
      // Prints the environment it was started with, then serves as the fixture server. Deno's
      // node:child_process rewrites a Deno.execPath() among the arguments, so the paths come in the env.
      probe: {
        command: isWindows ? "powershell" : "sh",
        args: isWindows
          ? [
            "-NoProfile",
            "-Command",
            `${ENV_COMMAND} | Set-Content $env:OUT; & $env:DENO run -A $env:FIXTURE`,
          ]
          : ["-c", 'env > "$OUT"; exec "$DENO" run -A "$FIXTURE"'],
        env: {
          MCP_HTTP_TOKEN: "named-by-the-config",
          KEEP_ME: "1",
          OUT: envFile,
          DENO: Deno.execPath(),
          FIXTURE,
        },
      },
    },
  };
  await Deno.writeTextFile(workspace.join("gateway.json"), JSON.stringify(config));
  await using server = await spawnHttp("gateway", {
    cwd: workspace.path,
    env: { MCP_WORKSPACE: workspace.path, MCP_GATEWAY_CONFIG: workspace.join("gateway.json") },
  });
  const token = server.headers.authorization.slice("Bearer ".length);
  const { client } = await connectHttpClient(server.url, server.headers);
  const call = (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name: "gateway_call", arguments: { name, arguments: args } });
  const jobEnv = textOf(await call("sh__shell_run", { command: ENV_COMMAND }));
  assert.match(jobEnv, /^PATH=/im);
  assert.doesNotMatch(jobEnv, /MCP_HTTP_/i);
  assert.match(textOf(await call("probe__pid")), /^\d+$/);
  await client.close();
  const downstream = await Deno.readTextFile(envFile);
  assert.match(downstream, /^KEEP_ME=1$/m, "the config's other variables pass");
  assert.doesNotMatch(downstream, /MCP_HTTP_/i);
  assert.ok(!downstream.includes(token));
});
