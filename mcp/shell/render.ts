/** How jobs and their output read to the model: one state line, stdout, then stderr when there is any. */
import type { LogSlice } from "../../lib/process/output_log.ts";
import { capText } from "../../lib/text/cap.ts";
import { formatCount } from "../../lib/text/format.ts";
import { cleanTerminalText } from "../../lib/text/terminal.ts";
import type { Job, JobSlice } from "./job.ts";

/** Characters of output one response carries at most. */
export const RESPONSE_CHARS = 30_000;

/** How output is turned into text. */
export interface RenderOptions {
  /** Keep ANSI escapes and carriage returns. */
  raw?: boolean;
  /** Default {@link RESPONSE_CHARS}. */
  budget?: number;
  /** Share of a cut budget given to the head (the rest goes to the tail). */
  headShare?: number;
  /** How to read what a cut leaves out (a cut happens only to a filtered page's one huge chunk). */
  note?: string;
}

const decoder = new TextDecoder();

/** `412` → `0.4s`, `12_300` → `12.3s`, `185_000` → `3m05s`. */
export function formatRuntime(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  return s < 3600
    ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`
    : `${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, "0")}m`;
}

/** `exit 0 after 1.2s`, `running 20.0s`, `timeout after 120.0s (tree killed)`, `killed by SIGTERM after 3.0s`. */
export function describeState(job: Job): string {
  const runtime = formatRuntime(job.runtimeMs());
  const ending = job.signal ? `signal ${job.signal}` : `exit ${job.exitCode}`;
  switch (job.state) {
    case "running":
      return `running ${runtime}`;
    case "timeout":
      return `timeout after ${runtime} (tree killed)`;
    case "killed":
      return `killed (${ending}) after ${runtime}`;
    case "exited":
      return `${ending} after ${runtime}${describeBackground(job)}`;
  }
}

/**
 * `; its background processes still run (2: npm run dev, node server.js)`, how they were ended, or that
 * something still holds the job's output open.
 */
function describeBackground(job: Job): string {
  if (job.orphans) {
    const commands = job.background;
    const shown = commands.slice(0, 3).join(", ") + (commands.length > 3 ? ", …" : "");
    return `; its background processes still run${commands.length ? ` (${commands.length}: ${shown})` : ""}`;
  }
  if (job.backgroundEnd === "timeout") return "; background processes killed at timeout_s";
  if (job.backgroundEnd === "killed") return "; background processes killed";
  // A process out of sight (it left group, session and marker) may still write: the end is not known yet.
  return job.quiet ? "" : "; its output is still open";
}

/** Output decoded and cleaned, per stream, with the bytes dropped from its middle. */
export interface DecodedOutput {
  stdout: string;
  stderr: string;
  dropped: number;
  /** The read jumped the dropped middle to a point inside a line (no line start near it). */
  midLine?: boolean;
}

/** The slices' bytes as clean text per stream (ANSI codes and `\r` redraws removed unless `raw`). */
export function decodeSlices(slices: readonly JobSlice[], options: { raw?: boolean } = {}): DecodedOutput {
  const out: string[] = [];
  const err: string[] = [];
  let dropped = 0;
  let midLine = false;
  for (const slice of slices) {
    dropped += slice.dropped;
    midLine ||= slice.midLine === true;
    out.push(decoder.decode(slice.stdout));
    err.push(decoder.decode(slice.stderr));
  }
  const clean = (text: string) => options.raw ? text : cleanTerminalText(text);
  return { stdout: clean(out.join("")), stderr: clean(err.join("")), dropped, midLine };
}

/** Decoded output as one response: the dropped-bytes notice, stdout, then a `[stderr]` section; capped. */
export function renderDecoded(output: DecodedOutput, options: RenderOptions = {}): string {
  let { stdout, stderr } = output;
  const budget = options.budget ?? RESPONSE_CHARS;
  if (stdout.length + stderr.length > budget) {
    const errBudget = Math.min(stderr.length, Math.max(Math.floor(budget / 3), budget - stdout.length));
    stderr = capText(stderr, errBudget, options);
    stdout = capText(stdout, budget - errBudget, options);
  }
  const parts: string[] = [];
  // Stated first, so that no later cut can hide it.
  if (output.dropped > 0) {
    const resumed = output.midLine ? "resuming mid-line" : "resuming at the next line start";
    parts.push(
      `[${formatCount(output.dropped)} bytes dropped mid-output (jobs keep the first 64K and last 1M); ` +
        `${resumed}]`,
    );
  }
  stdout = stdout.replace(/\n$/, "");
  stderr = stderr.replace(/\n$/, "");
  if (stdout !== "") parts.push(stdout);
  if (stderr.trim() !== "") parts.push(`[stderr]\n${stderr}`);
  return parts.join("\n");
}

/** The last non-empty output line (for progress notifications), at most 200 characters. */
export function lastLine(slice: LogSlice): string {
  const text = cleanTerminalText(decoder.decode(slice.last === "stderr" ? slice.stderr : slice.stdout));
  const line = text.split("\n").map((l) => l.trim()).filter(Boolean).at(-1) ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
