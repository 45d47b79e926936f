/**
 * edit-mcp against the spec's budgets (5 MB file: exact match at the end < 300 ms, unicode tier < 1.5 s,
 * no_match with diagnosis < 2 s), then side by side with the reference filesystem server's `edit_file` and
 * Desktop Commander's `edit_block` on the same edits: time, and whether the resulting bytes are right.
 * All three run over stdio as Continue would start them. `deno run -A bench/edit.ts [--no-peers]`
 * @module
 */
import { join } from "node:path";
import type { Client } from "../lib/mcp/sdk_client.ts";
import type { CallToolResult } from "../lib/mcp/sdk.ts";
import { os } from "../lib/platform/mod.ts";
import { log } from "../lib/log.ts";
import { spawnStdio } from "../tests/_support/stdio.ts";
import { type Peer, startPeer } from "./_support/peers.ts";

const RUNS = 3;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** ~5 MB of code-like lines; every 100th line has curly quotes and a dash, like prose comments do. */
function bigFile(lastLine: string): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < 5 * 1024 * 1024; i++) {
    const line = i % 100 === 0
      ? `    // step ${i}: it’s “quoted” — keep going\n`
      : `    const value_${i} = compute(${i}, "item ${i}", options); // line ${i}\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join("") + lastLine;
}

interface Case {
  name: string;
  file: string | Uint8Array;
  oldText: string;
  newText: string;
  /** The right bytes after the edit, or null when the right answer is to refuse and change nothing. */
  expected: string | Uint8Array | null;
}

const BIG_EXACT = bigFile("    return finish(total);\n");
const BIG_UNICODE = bigFile("    console.log(“done — it’s over”);\n");
const BIG_TRAILING = bigFile("    return finish(total);   \n");
const DEDENTED = "if ready:\n    start()\n";

const bomFile = (text: string) => new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(text)]);

const CASES: Case[] = [
  {
    name: "5 MB, exact match at the end",
    file: BIG_EXACT,
    oldText: "    return finish(total);\n",
    newText: "    return finish(total + 1);\n",
    expected: bigFile("    return finish(total + 1);\n"),
  },
  {
    name: "5 MB, trailing spaces in the file (whitespace tier)",
    file: BIG_TRAILING,
    oldText: "    return finish(total);\n",
    newText: "    return finish(total + 1);\n",
    // The spaces sit outside the changed part, so they stay.
    expected: bigFile("    return finish(total + 1);   \n"),
  },
  {
    name: "5 MB, curly quotes in the file (unicode tier)",
    file: BIG_UNICODE,
    oldText: `    console.log("done - it's over");\n`,
    newText: `    console.log("done - it's finished");\n`,
    expected: bigFile("    console.log(“done — it’s finished”);\n"),
  },
  {
    name: "5 MB, no match (diagnosis)",
    file: BIG_EXACT,
    oldText:
      'const value_52000 = compute(52000, "item 52000", options); // line 52000\nconst value_52001 = 1;\n',
    newText: "x\n",
    expected: null,
  },
  {
    name: "CRLF file, LF old_text",
    file: "a = 1\r\nb = 2\r\nc = 3\r\n",
    oldText: "b = 2\nc = 3\n",
    newText: "b = 20\nc = 30\n",
    expected: "a = 1\r\nb = 20\r\nc = 30\r\n",
  },
  {
    name: "curly quotes in file, straight in old_text",
    file: "title = “Hello” — it’s here\n",
    oldText: `title = "Hello" - it's here`,
    newText: `title = "Hello" - it's there`,
    expected: "title = “Hello” — it’s there\n",
  },
  {
    name: "NBSP in file, space in old_text",
    file: "price:\u00A010 EUR\n",
    oldText: "price: 10 EUR",
    newText: "price: 12 EUR",
    expected: "price:\u00A012 EUR\n",
  },
  {
    name: "trailing spaces in file",
    file: "alpha  \nbeta\n",
    oldText: "alpha\nbeta",
    newText: "alpha\ngamma",
    expected: "alpha  \ngamma\n",
  },
  {
    name: "UTF-8 BOM kept",
    file: bomFile("x = 1\n"),
    oldText: "x = 1",
    newText: "x = 2",
    expected: bomFile("x = 2\n"),
  },
  {
    name: "no final newline, old_text ends with one",
    file: "first\nlast",
    oldText: "last\n",
    newText: "final\n",
    expected: "first\nfinal",
  },
  {
    name: "two occurrences: must refuse",
    file: "call()\ncall()\n",
    oldText: "call()",
    newText: "done()",
    expected: null,
  },
  {
    name: "Python, dedented old_text: must refuse",
    file: "def main():\n    if ready:\n        start()\n",
    oldText: DEDENTED,
    newText: "if ready:\n    stop()\n",
    expected: null,
  },
];

type Runner = (path: string, c: Case) => Promise<CallToolResult>;

interface Contender {
  name: string;
  run: Runner;
  close(): Promise<void>;
}

function contender(
  name: string,
  client: Client,
  close: () => Promise<void>,
  toArgs: (path: string, c: Case) => Record<string, unknown>,
  tool: string,
): Contender {
  return {
    name,
    run: async (path, c) =>
      await client.callTool({ name: tool, arguments: toArgs(path, c) }) as CallToolResult,
    close,
  };
}

const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "edit-bench-" }));
const contenders: Contender[] = [];
const ours = await spawnStdio("edit", { cwd: root });
contenders.push(
  contender("edit-mcp `edit_file`", ours.client, () => ours.client.close(), (path, c) => ({
    path,
    edits: [{ old_text: c.oldText, new_text: c.newText }],
  }), "edit_file"),
);
if (!Deno.args.includes("--no-peers")) {
  try {
    const fs: Peer = await startPeer("filesystem", { workspace: root });
    contenders.push(contender("filesystem `edit_file`", fs.client, fs.close, (path, c) => ({
      path,
      edits: [{ oldText: c.oldText, newText: c.newText }],
    }), "edit_file"));
    const dc: Peer = await startPeer("desktop-commander", { workspace: root });
    contenders.push(contender("Desktop Commander `edit_block`", dc.client, dc.close, (path, c) => ({
      file_path: path,
      old_string: c.oldText,
      new_string: c.newText,
      expected_replacements: 1,
    }), "edit_block"));
  } catch (error) {
    log.info(
      `peers unavailable, comparing edit-mcp alone: ${error instanceof Error ? error.message : error}`,
    );
  }
}

const asBytes = (value: string | Uint8Array) => typeof value === "string" ? encoder.encode(value) : value;
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

interface Outcome {
  ms: number;
  verdict: string;
}

async function measure(who: Contender, c: Case, index: number): Promise<Outcome> {
  const times: number[] = [];
  let verdict = "";
  for (let run = 0; run < (asBytes(c.file).length > 1_000_000 ? RUNS : 1); run++) {
    const dir = join(root, `${who.name.split(" ")[0]}-${index}-${run}`);
    await Deno.mkdir(dir, { recursive: true });
    const path = join(dir, "file.txt");
    const original = asBytes(c.file);
    await Deno.writeFile(path, original);
    const started = performance.now();
    const result = await who.run(path, c);
    times.push(performance.now() - started);
    const after = await Deno.readFile(path);
    const text = (result.content?.[0] as { text?: string } | undefined)?.text ?? "";
    const refused = result.isError || /^Error/i.test(text) || same(after, original);
    if (c.expected === null) verdict = refused && same(after, original) ? "✅ refused" : "❌ wrote a guess";
    else if (same(after, asBytes(c.expected))) verdict = "✅ right bytes";
    else if (refused) verdict = "❌ refused";
    else verdict = `❌ wrong bytes${describeWrong(after, asBytes(c.expected))}`;
    await Deno.remove(dir, { recursive: true });
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], verdict };
}

function describeWrong(actual: Uint8Array, expected: Uint8Array): string {
  const a = decoder.decode(actual);
  const e = decoder.decode(expected);
  if (a.replaceAll("\r\n", "\n") === e.replaceAll("\r\n", "\n")) return " (line endings changed)";
  if (a.replace(/^\uFEFF/, "") === e.replace(/^\uFEFF/, "")) return " (BOM changed)";
  return "";
}

const BUDGETS: Record<string, number> = {
  "5 MB, exact match at the end": 300,
  "5 MB, curly quotes in the file (unicode tier)": 1_500,
  "5 MB, no match (diagnosis)": 2_000,
};

const results: Outcome[][] = [];
for (const [index, c] of CASES.entries()) {
  const row: Outcome[] = [];
  for (const who of contenders) row.push(await measure(who, c, index));
  results.push(row);
}
for (const who of contenders) await who.close();
await Deno.remove(root, { recursive: true });

const out: string[] = [
  `## edit-mcp (${os}/${Deno.build.arch}, deno ${Deno.version.deno}; median of ${RUNS} runs on 5 MB files, over stdio)`,
  "",
  "### Spec budgets",
  "",
  "| case | edit-mcp ms | budget ms | met |",
  "| --- | --- | --- | --- |",
];
for (const [index, c] of CASES.entries()) {
  const budget = BUDGETS[c.name];
  if (!budget) continue;
  const ms = results[index][0].ms;
  out.push(`| ${c.name} | ${ms.toFixed(0)} | ${budget} | ${ms < budget ? "yes" : "NO"} |`);
}
out.push("", "### Side by side (same edits, fresh file each run)", "");
out.push(`| case | ${contenders.map((c) => c.name).join(" | ")} |`);
out.push(`| --- | ${contenders.map(() => "---").join(" | ")} |`);
for (const [index, c] of CASES.entries()) {
  const cells = results[index].map((r, i) => {
    const ratio = i > 0 ? ` (${(r.ms / results[index][0].ms).toFixed(1)}×)` : "";
    return `${r.verdict}, ${r.ms.toFixed(0)} ms${ratio}`;
  });
  out.push(`| ${c.name} | ${cells.join(" | ")} |`);
}
const right = contenders.map((_, i) => results.filter((row) => row[i].verdict.startsWith("✅")).length);
out.push(`| **right outcomes** | ${right.map((n) => `**${n}/${CASES.length}**`).join(" | ")} |`);
out.push("", "Ratios are peer time / edit-mcp time for the same case in the same run.");
await Deno.stdout.write(encoder.encode(out.join("\n") + "\n"));
