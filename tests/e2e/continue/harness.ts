/**
 * One e2e scenario: the servers installed as a user installs them (`deno task install --wrappers`), the
 * repository's own block files copied into a fixture workspace, the real `cn` pointed at a scripted fake
 * model, and the checks every scenario shares (exit 0, each tool result back in the next request).
 * `E2E_SHOW_EXCHANGES=1` prints each scenario's calls and results.
 * @module
 */
import assert from "node:assert/strict";
import { delimiter, join } from "node:path";
import { REPO_ROOT } from "../../../tools/catalog.ts";
import { type FixtureEntry, tempWorkspace } from "../../_support/workspace.ts";
import { type CnResult, runCn } from "./cn.ts";
import { type ChatRequest, type Exchange, type Reply, type Script, startFakeModel } from "./fake_model.ts";

export type { Exchange, Reply };

/** The repository's ready-to-copy block files. */
export const BLOCKS_DIR: string = join(REPO_ROOT, ".continue", "mcpServers");

/** The text the fake model ends every scenario with. */
export const DONE = "E2E-DONE";

/** The servers on a bin folder, as `deno task install --wrappers --bin <bin>` puts them. */
export interface Installed {
  bin: string;
  /** The `--workspace` install wrote its block files into. */
  workspace: string;
}

let installed: Promise<Installed> | undefined;

/** Runs `deno task install --wrappers` into a temp bin folder, once per test module. */
export function installServers(): Promise<Installed> {
  return installed ??= (async () => {
    const root = await Deno.makeTempDir({ prefix: "continue-mcp-e2e-install-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(root, { recursive: true }));
    const bin = join(root, "bin");
    const workspace = join(root, "workspace");
    await Deno.mkdir(workspace);
    const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "install", "--wrappers", "--bin", bin, "--workspace", workspace],
      cwd: REPO_ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    if (!success) throw new Error(`deno task install failed:\n${decode(stdout)}${decode(stderr)}`);
    return { bin, workspace };
  })();
}

/** What one scenario gives cn and the fake model. */
export interface Scenario {
  /** Block files passed as `--mcp ./.continue/mcpServers/<name>.yaml`, in this order. */
  servers: string[];
  /** The fake model's script; it also gets the workspace path (to change files between turns). */
  script: (exchanges: readonly Exchange[], workspace: string) => Reply;
  /** Fixture files of the workspace. */
  files?: Record<string, FixtureEntry>;
  /** More cn arguments (`--exclude`, `--auto`). */
  args?: string[];
  env?: Record<string, string>;
  /** Prepended to PATH before the servers' bin folder. */
  path?: string;
}

/** A finished scenario; its workspace lives until disposal, so the test can check effects on disk. */
export interface ScenarioRun extends AsyncDisposable {
  workspace: string;
  exchanges: Exchange[];
  requests: ChatRequest[];
  cn: CnResult;
}

/** Runs one scenario and checks what every scenario must hold. */
export async function runScenario(scenario: Scenario): Promise<ScenarioRun> {
  const { bin } = await installServers();
  const workspace = await tempWorkspace(scenario.files ?? {});
  try {
    await Deno.mkdir(workspace.join(".continue", "mcpServers"), { recursive: true });
    for (const name of scenario.servers) {
      await Deno.copyFile(
        join(BLOCKS_DIR, `${name}.yaml`),
        workspace.join(".continue", "mcpServers", `${name}.yaml`),
      );
    }
    await using model = startFakeModel((exchanges) => scenario.script(exchanges, workspace.path));
    const cn = await runCn({
      cwd: workspace.path,
      apiBase: model.apiBase,
      args: [
        ...scenario.servers.flatMap((name) => ["--mcp", `./.continue/mcpServers/${name}.yaml`]),
        ...scenario.args ?? [],
      ],
      path: scenario.path ? `${scenario.path}${delimiter}${bin}` : bin,
      env: scenario.env,
    });
    if (Deno.env.get("E2E_SHOW_EXCHANGES")) {
      Deno.stderr.writeSync(new TextEncoder().encode(`${JSON.stringify(model.exchanges, null, 1)}\n`));
    }
    const context = `cn exit ${cn.code}\nstdout:\n${cn.stdout}\nstderr:\n${cn.stderr.slice(-4000)}`;
    assert.deepEqual(model.problems, [], context);
    assert.equal(cn.code, 0, context);
    // A call cn refuses (an "ask" tool in headless mode) ends it with exit 0 and no follow-up: every call's
    // result must have come back in a later request.
    assert.equal(model.exchanges.length, model.calls.length, `calls without a result\n${context}`);
    return {
      workspace: workspace.path,
      exchanges: model.exchanges,
      requests: model.requests,
      cn,
      [Symbol.asyncDispose]: () => workspace[Symbol.asyncDispose](),
    };
  } catch (error) {
    await workspace[Symbol.asyncDispose]();
    throw error;
  }
}

/** A script of fixed calls in order, then the final text {@link DONE}. */
export function calls(...steps: { call: string; arguments?: Record<string, unknown> }[]): Script {
  return (exchanges): Reply => {
    const step = steps[exchanges.length];
    return step ? { call: step.call, arguments: step.arguments ?? {} } : { text: DONE };
  };
}

/** The one exchange of a single-call scenario, with the final text printed by cn. */
export function onlyExchange(run: ScenarioRun): Exchange {
  assert.equal(run.exchanges.length, 1, `expected one tool call, got ${JSON.stringify(run.exchanges)}`);
  assert.match(run.cn.stdout, new RegExp(DONE));
  return run.exchanges[0];
}
