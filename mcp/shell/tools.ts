/** The shell server's tool table: run, start, output, input, kill, list. */
import { z } from "zod";
import { defineTool, type ToolDefinition } from "../../lib/mcp/tool.ts";
import type { TextOutput } from "../../lib/mcp/render.ts";
import { ToolError } from "../../lib/mcp/errors.ts";
import { capQuote } from "../../lib/text/cap.ts";
import { formatCount } from "../../lib/text/format.ts";
import { assertValidEnv } from "./env.ts";
import type { StdinReport } from "./stdin.ts";
import type { JobRegistry } from "./jobs.ts";
import { SHELLS } from "./resolve.ts";
import { describeState, lastLine, renderDecoded } from "./render.ts";
import { readPage, settle, untilFinished } from "./reading.ts";
import { readWhole } from "./whole_read.ts";
import type { Job } from "./job.ts";
import type { Sandbox } from "../../lib/sandbox/sandbox.ts";

/** What the tools need. */
export interface ToolDeps {
  jobs: JobRegistry;
  /** Default `timeout_s` of shell_run (120) and shell_start (600). */
  runTimeoutS?: number;
  startTimeoutS?: number;
  /** How long shell_input waits for the job to take its text before saying what is still queued; 2000. */
  inputWaitMs?: number;
  /** How long a shell_output filter may take before it is killed; 5000. */
  filterTimeoutMs?: number;
  /** The jobs' sandbox: its mode is said in the first result, its refusals explained. */
  sandbox?: Sandbox;
}

const DESTRUCTIVE = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const MAX_WAIT_S = 50;
const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP", "SIGKILL"] as const;

/** A whole number; a refinement rather than `.int()`, whose JSON schema adds ~6 tokens of bounds per field. */
const integer = () => z.number().refine(Number.isInteger, "expected an integer");

const jobInput = {
  command: z.string(),
  shell: z.enum(SHELLS).optional(),
  cwd: z.string().optional(),
  // catchall instead of z.record: same meaning, no `propertyNames` in the schema (fewer tokens).
  env: z.object({}).catchall(z.string()).optional(),
  "merge_stderr": z.boolean().optional().describe("2>&1: exact order"),
};

/** The tools, closed over the job registry. */
export function createTools(deps: ToolDeps): ToolDefinition[] {
  const { jobs } = deps;
  const said = saySandbox(deps.sandbox);
  return [
    defineTool({
      name: "shell_run",
      description:
        "Run a shell command, wait up to wait_s. Returns exit code and output, or a job_id if still running. " +
        "Sandboxed by the user's settings: writes outside the workspace and network may be refused.",
      input: {
        ...jobInput,
        timeout_s: z.number().optional().describe(
          `Kill after; default ${deps.runTimeoutS ?? 120}`,
        ),
        wait_s: z.number().min(0).max(MAX_WAIT_S).optional().describe("Default 20"),
      },
      annotations: DESTRUCTIVE,
      run: async (input, { signal, progress }) => {
        const job = await jobs.start({
          ...startRequest(input),
          timeoutMs: timeoutMs(input.timeout_s ?? deps.runTimeoutS ?? 120),
        });
        const stop = () => job.kill();
        signal.addEventListener("abort", stop, { once: true });
        try {
          const deadline = performance.now() + (input.wait_s ?? 20) * 1000;
          let reported = 0;
          while (job.state === "running" && !signal.aborted) {
            const left = deadline - performance.now();
            if (left <= 0) break;
            // Wake on the end or once a second for progress, never per output chunk.
            await untilFinished(job, Math.min(left, 1000), signal);
            if (job.state === "running" && job.log.total > reported) {
              reported = job.log.total;
              const line = lastLine(job.log.read(Math.max(0, reported - 2048)));
              if (line) progress(line);
            }
          }
        } finally {
          signal.removeEventListener("abort", stop);
        }
        if (signal.aborted) await job.kill();
        const whole = readWhole(job, 0);
        const body = renderDecoded(whole.output);
        if (job.state !== "running") {
          const timeoutS = input.timeout_s ?? deps.runTimeoutS ?? 120;
          const hint = job.orphans
            ? `\n[job ${job.id}: shell_kill job_id=${job.id} stops what still runs; ` +
              `so does timeout_s (${timeoutS}s)]`
            : job.quiet
            ? ""
            : `\n[job ${job.id}: shell_output job_id=${job.id} shows what still comes]`;
          // A cut names its cursor: the job id must be there to follow it.
          const id = whole.cutAt === undefined ? "" : `job ${job.id} `;
          return await said(job, `${id}${describeState(job)}\n${body || "(no output)"}${hint}`);
        }
        return await said(
          job,
          `job ${job.id} ${describeState(job)}\n${body || "(no output yet)"}\n` +
            `[still running: shell_output job_id=${job.id} follows it, shell_kill job_id=${job.id} stops it]`,
        );
      },
    }),
    defineTool({
      name: "shell_start",
      description: "Start a background job and return its job_id at once. Follow with shell_output.",
      input: {
        ...jobInput,
        timeout_s: z.number().optional().describe(
          `Kill after; default ${deps.startTimeoutS ?? 600}`,
        ),
        stdin: z.enum(["null", "pipe"]).optional().describe("pipe: accept shell_input"),
      },
      annotations: DESTRUCTIVE,
      run: async (input) => {
        const job = await jobs.start({
          ...startRequest(input),
          stdin: input.stdin,
          timeoutMs: timeoutMs(input.timeout_s ?? deps.startTimeoutS ?? 600),
        });
        return await said(
          job,
          `job ${job.id} running (pid ${job.pid}); follow it with shell_output job_id=${job.id}`,
        );
      },
    }),
    defineTool({
      name: "shell_output",
      description:
        "A job's output after cursor since (default: where the last read ended), its state and exit code.",
      input: {
        job_id: integer(),
        since: integer().optional(),
        wait_s: z.number().min(0).max(MAX_WAIT_S).optional().describe("Wait for output or exit"),
        filter: z.string().optional().describe("Regex; only matching lines"),
        raw: z.boolean().optional().describe("Keep ANSI codes and \\r"),
      },
      annotations: READ_ONLY,
      run: async (input, { signal }) => {
        const job = jobs.get(input.job_id);
        const filter = input.filter === undefined ? undefined : compileFilter(input.filter);
        const since = input.since === undefined
          ? job.cursor
          : input.since < 0
          ? Math.max(0, job.log.total + input.since)
          : input.since;
        return await said(
          job,
          await readPage(job, since, {
            filter,
            waitMs: (input.wait_s ?? 0) * 1000,
            raw: input.raw,
            filterTimeoutMs: deps.filterTimeoutMs,
            signal,
          }),
        );
      },
    }),
    defineTool({
      name: "shell_input",
      description: "Write to a job's stdin (needs stdin=pipe); returns new output.",
      input: {
        job_id: integer(),
        text: z.string().describe("Newline added if missing"),
        eof: z.boolean().optional().describe("Close stdin after"),
      },
      annotations: DESTRUCTIVE,
      run: async (input, { signal }) => {
        const job = jobs.get(input.job_id);
        const text = input.text === "" || input.text.endsWith("\n") ? input.text : `${input.text}\n`;
        const before = job.log.total;
        const report = await job.write(text, input.eof ?? false, {
          waitMs: deps.inputWaitMs ?? 2000,
          signal,
        });
        // Input still queued: the job is busy, and the call already waited for it.
        if (report.queued === 0) await settle(job, before, signal);
        const page = await readPage(job, job.cursor, {});
        return await said(job, report.queued > 0 ? `${page}\n${describeQueued(report)}` : page);
      },
    }),
    defineTool({
      name: "shell_kill",
      description: "Kill a job's whole process tree. Returns final state and unread output.",
      input: {
        job_id: integer(),
        signal: z.enum(SIGNALS).optional().describe("Then SIGKILL after 2s"),
      },
      annotations: DESTRUCTIVE,
      run: async (input) => {
        const job = jobs.get(input.job_id);
        await job.kill({ signal: input.signal });
        const body = renderDecoded(readWhole(job, job.cursor, { headShare: 0.3 }).output);
        return await said(job, `job ${job.id} ${describeState(job)}\n${body || "(no unread output)"}`);
      },
    }),
    defineTool({
      name: "shell_list",
      description: "All jobs: id, state, command, runtime, exit code.",
      input: {},
      output: {
        jobs: z.array(z.object({
          id: z.number(),
          state: z.enum(["running", "exited", "killed", "timeout"]),
          command: z.string(),
          pid: z.number(),
          runtime_s: z.number(),
          exit_code: z.number().nullable(),
          signal: z.string().nullable(),
          orphans: z.boolean(),
          unread_bytes: z.number(),
        })),
      },
      annotations: READ_ONLY,
      run: async () => {
        await jobs.refreshLeftovers();
        const list = jobs.list();
        return {
          jobs: list.map((job) => ({
            id: job.id,
            state: job.state,
            command: job.command.length > 80 ? `${job.command.slice(0, 79)}…` : job.command,
            pid: job.pid,
            runtime_s: Math.round(job.runtimeMs() / 100) / 10,
            exit_code: job.exitCode,
            signal: job.signal,
            orphans: job.orphans,
            unread_bytes: job.unread(job.cursor).kept,
          })),
        };
      },
    }),
  ];
}

/**
 * Adds to a result the sandbox's line about a refusal in the job's output (once per job, once it ended) and,
 * to the first result after start, the sandbox mode in force: the agent is never left to guess.
 */
function saySandbox(sandbox: Sandbox | undefined): (job: Job, text: string) => Promise<TextOutput> {
  let announced = false;
  return async (job, text) => {
    const note = job.takeSandboxNote();
    const body = note ? `${text}\n${note}` : text;
    if (!sandbox || announced) return body;
    announced = true;
    // A block of its own: the job's text stays as it always reads.
    return [{ type: "text", text: body }, { type: "text", text: (await sandbox.status()).brief }];
  };
}

/** The truth about input the job has not read yet. */
function describeQueued(report: StdinReport): string {
  const eof = report.eofPending ? "; stdin closes after it" : "";
  return `[stdin: ${formatCount(report.accepted)} of ${formatCount(report.total)} bytes taken so far; ` +
    `${formatCount(report.queued)} bytes queued, written in order as the job reads${eof}]`;
}

function startRequest(input: {
  command: string;
  shell?: typeof SHELLS[number];
  cwd?: string;
  env?: Record<string, string>;
  "merge_stderr"?: boolean;
}) {
  if (input.command.trim() === "") {
    throw new ToolError("invalid_argument", "Cannot run an empty command; pass the shell command to run");
  }
  if (input.command.includes("\0")) {
    throw new ToolError("invalid_argument", "Cannot run a command containing a NUL byte; remove it");
  }
  assertValidEnv(input.env ?? {});
  return {
    command: input.command,
    shell: input.shell,
    cwd: input.cwd,
    env: input.env,
    mergeStderr: input.merge_stderr,
  };
}

/** Seconds → ms, within what a timer can hold (~24 days). */
function timeoutMs(seconds: number): number {
  if (!(seconds > 0)) {
    throw new ToolError(
      "invalid_argument",
      `Cannot use timeout_s ${seconds}: it must be more than 0 seconds`,
    );
  }
  return Math.min(seconds * 1000, 2 ** 31 - 1);
}

function compileFilter(source: string): RegExp {
  try {
    return new RegExp(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolError("invalid_argument", `Cannot use filter "${capQuote(source)}": ${capQuote(reason)}`);
  }
}
