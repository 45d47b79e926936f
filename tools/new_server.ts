/**
 * `deno task new <name> [--tail] [--describe "one line"]`: copies templates/server/ into mcp/<name>/ and
 * tests/mcp/<name>/ renamed, adds the compile task and the gateway's builtin entry, and wires the server:
 * a `.continue/mcpServers/<name>.yaml` block, or with `--tail` an entry in the gateway's example config
 * (never both). Refuses a bad or taken name before writing anything. Ends by running the new server's tests
 * and printing the wiring steps; exits with the tests' status.
 * @module
 */
import { dirname, join, relative } from "node:path";
import { REPO_ROOT } from "./catalog.ts";
import { blockYaml } from "./blocks.ts";
import {
  addBuiltin,
  addCompileTask,
  addGatewayEntry,
  hasBuiltin,
  hasGatewayEntry,
  nameProblem,
  renderTemplateFile,
  type ServerSpec,
  targetPath,
} from "./scaffold.ts";

const USAGE = 'Usage: deno task new <name> [--tail] [--describe "one line"]';
const TEMPLATE_DIR = "templates/server";
const GATEWAY_CONFIG = "mcp/gateway/gateway.config.example.jsonc";
const BUILTINS = "mcp/gateway/builtins.ts";

/** A request the generator turns down; nothing has been written. */
export class Refusal extends Error {
  override readonly name = "Refusal";
}

/** The spec from the command line; unknown arguments are refused. */
export function parseArgs(args: readonly string[]): ServerSpec {
  let name: string | undefined;
  let summary: string | undefined;
  let tail = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--tail") tail = true;
    else if (arg === "--describe") {
      summary = args[++i];
      if (summary === undefined) throw new Refusal(`--describe needs a value\n${USAGE}`);
    } else if (arg.startsWith("-")) throw new Refusal(`Unknown option "${arg}"\n${USAGE}`);
    else if (name === undefined) name = arg;
    else throw new Refusal(`Unexpected argument "${arg}"\n${USAGE}`);
  }
  if (name === undefined) throw new Refusal(USAGE);
  const problem = nameProblem(name);
  if (problem) throw new Refusal(`${problem}\n${USAGE}`);
  summary ??= `The ${name} server.`;
  if (!summary.trim() || /[\r\n]/.test(summary) || summary.includes("*/") || summary.length > 200) {
    throw new Refusal('--describe takes one line of at most 200 characters (no "*/")');
  }
  return { name, summary: summary.trim(), tail };
}

/** Every file to write (path relative to `root` → its whole new text); only reads. Throws Refusal. */
export async function planServer(root: string, spec: ServerSpec): Promise<Map<string, string>> {
  const { name } = spec;
  const block = `.continue/mcpServers/${name}.yaml`;
  for (const taken of [`mcp/${name}`, `tests/mcp/${name}`, block]) {
    if (await exists(join(root, taken))) throw new Refusal(`"${name}" is taken: ${taken} exists`);
  }
  const builtins = await Deno.readTextFile(join(root, BUILTINS));
  if (hasBuiltin(builtins, name)) throw new Refusal(`"${name}" is taken: ${BUILTINS} already hosts it`);
  const gatewayConfig = await Deno.readTextFile(join(root, GATEWAY_CONFIG));
  if (hasGatewayEntry(gatewayConfig, name)) {
    throw new Refusal(`"${name}" is taken: ${GATEWAY_CONFIG} already has an entry by that name`);
  }

  const plan = new Map<string, string>();
  const templateRoot = join(root, TEMPLATE_DIR);
  for (const file of await listFiles(templateRoot)) {
    const relativePath = relative(templateRoot, file).replaceAll("\\", "/");
    plan.set(
      targetPath(relativePath, name),
      renderTemplateFile(relativePath, await Deno.readTextFile(file), spec),
    );
  }
  const manifest = JSON.parse(plan.get(`mcp/${name}/server.json`)!);
  const denoJson = await Deno.readTextFile(join(root, "deno.json"));
  try {
    plan.set("deno.json", addCompileTask(denoJson, name, manifest.permissions));
    // The gateway can host every server of this project in its own process (`{ "builtin": "<name>" }`).
    plan.set(BUILTINS, addBuiltin(builtins, name));
    if (spec.tail) plan.set(GATEWAY_CONFIG, addGatewayEntry(gatewayConfig, name));
    else plan.set(block, blockYaml({ name, entry: "", ...manifest }));
  } catch (error) {
    throw new Refusal(`Cannot wire "${name}": ${error instanceof Error ? error.message : error}`);
  }
  return plan;
}

/** Writes the plan: new files are created (never overwritten), edited files replaced. */
export async function writePlan(root: string, plan: Map<string, string>): Promise<void> {
  for (const [path, text] of plan) {
    const target = join(root, path);
    const existed = await exists(target);
    await Deno.mkdir(dirname(target), { recursive: true });
    await Deno.writeTextFile(target, text, existed ? {} : { createNew: true });
  }
}

/** What is left for the user (or agent) to do once the server exists. */
export function wiringSteps(spec: ServerSpec): string[] {
  const { name } = spec;
  const common = [
    `edit mcp/${name}/tools.ts (the tools) and tests/mcp/${name}/server_test.ts (their golden tests), then:`,
    `  UPDATE_SNAPSHOTS=1 deno test -A tests/mcp/${name}/ && deno test -A tests/mcp/${name}/`,
    `  deno fmt mcp/${name} tests/mcp/${name} && deno lint mcp/${name} tests/mcp/${name}`,
    "deno task sync      # the README table (and the Continue block examples)",
    `deno task doctor    # ${name}-mcp must show ok`,
  ];
  if (spec.tail) {
    return [
      ...common,
      `wired behind the gateway: ${GATEWAY_CONFIG} has "${name}": { "builtin": "${name}" }.`,
      "  Copy that entry into the config your gateway reads ($MCP_GATEWAY_CONFIG), then restart the gateway:",
      "  it reads its builtin table at start; a compiled gateway-mcp embeds it (re-run `deno task install`).",
      `  The agent reaches it with gateway_search, then gateway_call { "name": "${name}__<tool>" }.`,
    ];
  }
  return [
    ...common,
    `wired into Continue: .continue/mcpServers/${name}.yaml runs "${name}-mcp".`,
    `  deno task install   # puts ${name}-mcp on PATH and copies the block into your workspace`,
    "  Then reload Continue; the tools appear in agent mode.",
  ];
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await listFiles(path));
    else if (entry.isFile) files.push(path);
  }
  return files.sort();
}

if (import.meta.main) {
  const say = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
  let spec: ServerSpec;
  let plan: Map<string, string>;
  try {
    spec = parseArgs(Deno.args);
    plan = await planServer(REPO_ROOT, spec);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    Deno.stderr.writeSync(new TextEncoder().encode(`refused (nothing changed): ${error.message}\n`));
    Deno.exit(2);
  }
  await writePlan(REPO_ROOT, plan);
  for (const path of plan.keys()) say(`wrote   ${path}`);
  say(`\nrunning the new server's tests: deno test --no-prompt -A tests/mcp/${spec.name}/`);
  const tests = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--no-prompt", "-A", `tests/mcp/${spec.name}/`],
    cwd: REPO_ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  say(`\n${spec.name}-mcp ${tests.success ? "is ready" : "FAILED its tests"}. Next:`);
  for (const line of wiringSteps(spec)) say(`  ${line}`);
  Deno.exit(tests.success ? 0 : 1);
}
