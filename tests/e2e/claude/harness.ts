/**
 * One Claude Code scenario, wired as the README's "Claude Code" section says: the servers installed as a
 * user installs them (`deno task install --wrappers`), added to the project with `claude mcp add --scope
 * project` (its `.mcp.json`) and approved with `enabledMcpjsonServers` in `~/.claude/settings.json`; an
 * HTTP server added with `claude mcp add --transport http … --header "Authorization: Bearer <token>"`;
 * then `claude -p` headless with `--allowedTools`, against the scripted fake Messages API.
 * `E2E_SHOW_EXCHANGES=1` prints each scenario's calls and results.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type FixtureEntry, tempWorkspace } from "../../_support/workspace.ts";
import { type HttpProcess, spawnHttp } from "../../_support/http.ts";
import { installServers } from "../continue/harness.ts";
import { type ClaudeHome, claudeHome, type ClaudeResult, runClaude } from "./claude.ts";
import { type Exchange, type MessagesRequest, type Reply, startFakeApi } from "./fake_api.ts";
import { isLoopback } from "./network.ts";

export type { Exchange, MessagesRequest, Reply };

/** The text the fake model ends every scenario with. */
export const DONE = "E2E-DONE";

/** What the script sees besides the exchanges. */
export interface ScriptContext {
  workspace: string;
  request: MessagesRequest;
}

/** What one scenario gives Claude Code and the fake API. */
export interface ClaudeScenario {
  /** stdio servers: `claude mcp add --scope project <name> -- <name>-mcp`, then approved. */
  servers: string[];
  /** Servers started with `--http`, added as `<name>-http` with `--transport http` and the token header. */
  httpServers?: string[];
  /** ENABLE_TOOL_SEARCH: on, MCP tools are listed by name and loaded with ToolSearch `select:`. */
  toolSearch: boolean;
  script: (exchanges: readonly Exchange[], context: ScriptContext) => Reply;
  files?: Record<string, FixtureEntry>;
  /** `-e NAME=value` on every stdio server's `claude mcp add`. */
  serverEnv?: Record<string, string>;
  /** `--allowedTools`; `mcp__<server>` for every server by default. */
  allowedTools?: string[];
}

/** A finished scenario; its folders live until disposal, so the test can check effects on disk. */
export interface ClaudeRun extends AsyncDisposable {
  workspace: string;
  user: ClaudeHome;
  exchanges: Exchange[];
  requests: MessagesRequest[];
  claude: ClaudeResult;
}

/** A project folder set up for Claude Code: servers added and approved, HTTP servers running. */
export interface ClaudeProject extends AsyncDisposable {
  workspace: string;
  user: ClaudeHome;
  /** The servers' bin folder, for PATH. */
  bin: string;
  /** `claude <args>` in the project, sealed. */
  claude(args: string[], options?: { apiBase?: string; env?: Record<string, string> }): Promise<ClaudeResult>;
}

/** Installs the servers, makes a throwaway user and a project with `scenario`'s servers wired in. */
export async function setUpProject(
  scenario: Pick<ClaudeScenario, "servers" | "httpServers" | "files" | "serverEnv">,
  options: { approve?: boolean } = {},
): Promise<ClaudeProject> {
  const { bin } = await installServers();
  const user = await claudeHome();
  const workspace = await tempWorkspace(scenario.files ?? {});
  const http: HttpProcess[] = [];
  const claude: ClaudeProject["claude"] = (args, more = {}) =>
    runClaude({ user, cwd: workspace.path, path: bin, args, ...more });
  const dispose = async () => {
    for (const server of http) await server.stop();
    await workspace[Symbol.asyncDispose]();
    await user[Symbol.asyncDispose]();
  };
  try {
    const env = Object.entries(scenario.serverEnv ?? {}).flatMap((
      [name, value],
    ) => ["-e", `${name}=${value}`]);
    for (const name of scenario.servers) {
      await expectOk(claude(["mcp", "add", "--scope", "project", name, ...env, "--", `${name}-mcp`]));
    }
    if (options.approve ?? true) await approve(user, scenario.servers);
    for (const name of scenario.httpServers ?? []) {
      const server = await spawnHttp(name, {
        auth: { configHome: join(user.home, ".config") },
        cwd: workspace.path,
        env: { DENO_NO_UPDATE_CHECK: "1" },
      });
      http.push(server);
      // As the README says: the token read from ~/.config/continue-mcp/http-token-<port>, local scope (the
      // token stays out of the project's .mcp.json).
      const port = new URL(server.url).port;
      const token = (await Deno.readTextFile(
        join(user.home, ".config", "continue-mcp", `http-token-${port}`),
      )).trim();
      await expectOk(claude([
        "mcp",
        "add",
        "--transport",
        "http",
        `${name}-http`,
        server.url,
        "--header",
        `Authorization: Bearer ${token}`,
      ]));
    }
  } catch (error) {
    await dispose();
    throw error;
  }
  return { workspace: workspace.path, user, bin, claude, [Symbol.asyncDispose]: dispose };
}

/** Approves project (.mcp.json) servers the way that works without the interactive trust dialog. */
export async function approve(user: ClaudeHome, servers: string[]): Promise<void> {
  await Deno.mkdir(join(user.home, ".claude"), { recursive: true });
  await Deno.writeTextFile(
    join(user.home, ".claude", "settings.json"),
    `${JSON.stringify({ enabledMcpjsonServers: servers }, null, 2)}\n`,
  );
}

async function expectOk(pending: Promise<ClaudeResult>): Promise<ClaudeResult> {
  const result = await pending;
  assert.equal(result.code, 0, `claude exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  assertSealed(result);
  return result;
}

/** No connection or datagram left loopback (the trace saw everything Claude Code and the servers did). */
export function assertSealed(result: ClaudeResult): void {
  const off = result.addresses.filter((address) => !isLoopback(address));
  assert.deepEqual(off, [], `a connection left loopback: ${off.join(", ")}`);
}

/** Runs one scenario and checks what every scenario must hold. */
export async function runScenario(scenario: ClaudeScenario): Promise<ClaudeRun> {
  const project = await setUpProject(scenario);
  try {
    const servers = [...scenario.servers, ...(scenario.httpServers ?? []).map((name) => `${name}-http`)];
    await using api = startFakeApi((exchanges, request) =>
      scenario.script(exchanges, { workspace: project.workspace, request })
    );
    const claude = await project.claude(
      [
        "-p",
        "Do the task.",
        "--allowedTools",
        ...scenario.allowedTools ?? servers.map((name) => `mcp__${name}`),
      ],
      { apiBase: api.baseUrl, env: { ENABLE_TOOL_SEARCH: scenario.toolSearch ? "true" : "false" } },
    );
    if (Deno.env.get("E2E_SHOW_EXCHANGES")) {
      Deno.stderr.writeSync(new TextEncoder().encode(`${JSON.stringify(api.exchanges, null, 1)}\n`));
    }
    const context = `claude exit ${claude.code}\nstdout:\n${claude.stdout}\nstderr:\n${
      claude.stderr.slice(-4000)
    }`;
    assert.deepEqual(api.problems, [], context);
    assert.equal(claude.code, 0, context);
    // A refused call (a tool not in --allowedTools) still exits 0: every call's result must have come back.
    assert.equal(api.exchanges.length, api.calls.length, `calls without a result\n${context}`);
    assert.match(claude.stdout, new RegExp(DONE), context);
    assertSealed(claude);
    assert.ok(
      claude.addresses.includes(`127.0.0.1:${api.port}`),
      `the trace missed the API: ${claude.addresses}`,
    );
    // Claude Code's temp folder went where CLAUDE_CODE_TMPDIR says.
    const tmp = await Array.fromAsync(Deno.readDir(project.user.tmp), (entry) => entry.name);
    assert.ok(tmp.some((name) => name.startsWith("claude-")), `nothing of Claude Code in its tmp: ${tmp}`);
    return {
      workspace: project.workspace,
      user: project.user,
      exchanges: api.exchanges,
      requests: api.requests,
      claude,
      [Symbol.asyncDispose]: () => project[Symbol.asyncDispose](),
    };
  } catch (error) {
    await project[Symbol.asyncDispose]();
    throw error;
  }
}

/** The full name Claude Code gives a server's tool. */
export const mcpName = (server: string, tool: string): string => `mcp__${server}__${tool}`;

/**
 * A script of fixed calls of `server`'s tools in order, then the final text {@link DONE}. With tool search
 * on, each tool is first loaded with ToolSearch `select:<name>`; its result must be that tool's reference,
 * and the next request must carry the tool in `tools[]`.
 */
export function calls(
  toolSearch: boolean,
  ...steps: { server: string; tool: string; input?: Record<string, unknown> }[]
): ClaudeScenario["script"] {
  const replies: Reply[] = steps.flatMap(({ server, tool, input }) => {
    const call: Reply = { call: mcpName(server, tool), input: input ?? {} };
    return toolSearch
      ? [{ call: "ToolSearch", input: { query: `select:${mcpName(server, tool)}` } }, call]
      : [call];
  });
  return (exchanges, { request }) => {
    const last = exchanges.at(-1);
    if (last?.name === "ToolSearch") {
      const wanted = String(last.input.query).replace(/^select:/, "");
      assert.equal(last.result, `tool_reference:${wanted}`, "ToolSearch select: did not load the tool");
      assert.ok(
        request.tools?.some((tool) => tool.name === wanted),
        `${wanted} not in tools[] after select:`,
      );
    }
    return replies[exchanges.length] ?? { text: DONE };
  };
}

/** The exchanges that called MCP tools (ToolSearch left out). */
export function toolExchanges(run: ClaudeRun): Exchange[] {
  return run.exchanges.filter((exchange) => exchange.name.startsWith("mcp__"));
}

/** The one MCP tool exchange of a single-call scenario. */
export function onlyExchange(run: ClaudeRun): Exchange {
  const exchanges = toolExchanges(run);
  assert.equal(exchanges.length, 1, `expected one tool call, got ${JSON.stringify(run.exchanges)}`);
  assert.equal(exchanges[0].isError, false, `the call failed: ${exchanges[0].result}`);
  return exchanges[0];
}
