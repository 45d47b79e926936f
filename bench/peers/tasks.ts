/**
 * The scripted agent tasks of the trajectory replay, each written once per toolkit as the calls a model
 * would naturally make with that toolkit's tools. A step is a call, or a reason the toolkit cannot do it.
 * @module
 */
import { join } from "node:path";
import { LOG_CULPRIT, testsPass } from "./fixture.ts";

/** What a step sees: the fixture root and the text of the previous result. */
export interface StepContext {
  root: string;
  last: string;
}

/** A call, or why the toolkit has no call for it. */
export type Step = (
  ctx: StepContext,
) => [tool: string, args: Record<string, unknown>] | { unavailable: string };

/** The end state a task must reach; `seen` is every result text the model received. */
export type Check = (root: string, seen: string) => Promise<string | null>;

/** One task: a check of its end state and the steps per toolkit. */
export interface Task {
  name: string;
  check: Check;
  steps: Record<ToolkitId, Step[]>;
}

export type ToolkitId = "ours" | "dc" | "fsrg";

const NAIVE = "  return price * (1 - percent / 100);";
const FIXED = "  return Math.round(price * (100 - percent)) / 100;";
const BUG = "  return price - percent;";
const LESSON = "Money math: multiply to integer cents and Math.round, never compare float results directly.";
const pid = (text: string) => Number(/PID (\d+)/i.exec(text)?.[1] ?? /pid[":\s]+(\d+)/i.exec(text)?.[1]);
const jobId = (text: string) => Number(/job[ _]?(?:id)?[":\s]+(\d+)/i.exec(text)?.[1]);
const noTests = { unavailable: "cannot run commands (no shell tool)" };

const fixTest: Task = {
  name: "fix a failing test",
  check: async (root) => (await testsPass(root)) ? null : "tests still fail",
  steps: {
    ours: [
      () => ["search_grep", { pattern: "function applyDiscount" }],
      () => ["fs_read", { path: "src/pricing.js", limit: 12 }],
      () => ["edit_file", { path: "src/pricing.js", edits: [{ old_text: BUG, new_text: NAIVE }] }],
      () => ["shell_run", { command: "node --test" }],
      () => ["edit_file", { path: "src/pricing.js", edits: [{ old_text: NAIVE, new_text: FIXED }] }],
      () => ["shell_run", { command: "node --test" }],
      () => ["notes_write", { slug: "money-rounding", body: LESSON, tags: ["lesson"] }],
    ],
    dc: [
      (
        { root },
      ) => ["start_search", { path: root, pattern: "function applyDiscount", searchType: "content" }],
      ({ root }) => ["read_file", { path: join(root, "src/pricing.js"), offset: 0, length: 12 }],
      (
        { root },
      ) => ["edit_block", { file_path: join(root, "src/pricing.js"), old_string: BUG, new_string: NAIVE }],
      ({ root }) => ["start_process", { command: `cd ${root} && node --test`, timeout_ms: 30_000 }],
      ({ root }) => ["edit_block", {
        file_path: join(root, "src/pricing.js"),
        old_string: NAIVE,
        new_string: FIXED,
      }],
      ({ root }) => ["start_process", { command: `cd ${root} && node --test`, timeout_ms: 30_000 }],
      ({ root }) => ["write_file", { path: join(root, "LESSONS.md"), content: `# Lessons\n\n- ${LESSON}\n` }],
    ],
    fsrg: [
      ({ root }) => ["search", { pattern: "function applyDiscount", path: root }],
      ({ root }) => ["read_text_file", { path: join(root, "src/pricing.js"), head: 12 }],
      (
        { root },
      ) => ["edit_file", { path: join(root, "src/pricing.js"), edits: [{ oldText: BUG, newText: NAIVE }] }],
      // Without a test run the model never sees the rounding failure, so it stops at the first fix.
      () => noTests,
      () => ["create_entities", {
        entities: [{ name: "money-rounding", entityType: "lesson", observations: [LESSON] }],
      }],
    ],
  },
};

const RENAMED = ["src/format.js", "src/cart.js", "src/report.js", "test/format.test.js"];

const rename: Task = {
  name: "rename a symbol across files",
  check: async (root) => {
    for (const path of RENAMED) {
      if ((await Deno.readTextFile(join(root, path))).includes("formatTotal")) {
        return `formatTotal left in ${path}`;
      }
    }
    return (await testsPass(root, ["test/format.test.js"])) ? null : "format tests fail";
  },
  steps: {
    ours: [
      () => ["search_grep", { pattern: "formatTotal", word: true, mode: "count" }],
      // One edit_file call changes the four files together (all or none).
      () => ["edit_file", {
        edits: RENAMED.map((path) => ({
          path,
          old_text: "formatTotal",
          new_text: "formatMoney",
          replace_all: true,
        })),
      }],
      () => ["shell_run", { command: "node --test test/format.test.js" }],
    ],
    dc: [
      ({ root }) => ["start_search", { path: root, pattern: "formatTotal", searchType: "content" }],
      ...RENAMED.map((path): Step => ({ root }) => ["edit_block", {
        file_path: join(root, path),
        old_string: "formatTotal",
        new_string: "formatMoney",
        expected_replacements: path === "src/format.js" ? 1 : 2,
      }]),
      (
        { root },
      ) => ["start_process", {
        command: `cd ${root} && node --test test/format.test.js`,
        timeout_ms: 30_000,
      }],
    ],
    fsrg: [
      ({ root }) => ["search", { pattern: "formatTotal", path: root }],
      // The reference edit_file replaces exact text once per edit: one edit per occurrence, its line as context.
      ...RENAMED.map((path): Step => ({ root, last }) => {
        void last;
        return ["edit_file", { path: join(root, path), edits: occurrences(path) }];
      }),
      () => noTests,
    ],
  },
};

/** The lines holding formatTotal in each renamed file, as reference edit_file edits (whole lines). */
function occurrences(path: string): { oldText: string; newText: string }[] {
  const lines: Record<string, string[]> = {
    "src/format.js": ["export function formatTotal(amount) {"],
    "src/cart.js": [
      'import { formatTotal } from "./format.js";',
      "  return `Total: ${formatTotal(cartTotal(items, percent))}`;",
    ],
    "src/report.js": [
      'import { formatTotal } from "./format.js";',
      '  return totals.map((total, day) => `day ${day + 1}: ${formatTotal(total)}`).join("\\n");',
    ],
    "test/format.test.js": [
      'import { formatTotal } from "../src/format.js";',
      'test("thousands", () => assert.equal(formatTotal(1234.5), "$1,234.50"));',
    ],
  };
  return lines[path].map((line) => ({
    oldText: line,
    newText: line.replaceAll("formatTotal", "formatMoney"),
  }));
}

const investigate: Task = {
  name: "investigate a long log from a background job",
  check: (_root, seen) =>
    Promise.resolve(seen.includes(LOG_CULPRIT) ? null : "the error line never reached the model"),
  steps: {
    ours: [
      () => ["shell_start", { command: "bash scripts/nightly.sh" }],
      ({ last }) => ["shell_output", { job_id: jobId(last), wait_s: 30, filter: "ERROR|error" }],
      () => ["fs_read", { path: "data/inventory.csv", offset: 1185, limit: 5 }],
    ],
    dc: [
      (
        { root },
      ) => ["start_process", { command: `cd ${root} && bash scripts/nightly.sh`, timeout_ms: 5_000 }],
      ({ last }) => ["read_process_output", { pid: pid(last), timeout_ms: 30_000 }],
      ({ root }) => ["read_file", { path: join(root, "data/inventory.csv"), offset: 1185, length: 5 }],
    ],
    fsrg: [
      () => ({ unavailable: "cannot start the job (no shell tool), so there is no log to read" }),
    ],
  },
};

/** Every task, in report order. */
export const TASKS: Task[] = [fixTest, rename, investigate];
