/** The shell server through a real MCP client, with real processes. */
import assert from "node:assert/strict";
import { encode } from "gpt-tokenizer";
import { connect, textOf } from "../../_support/connect.ts";
import { assertSnapshot } from "../../_support/snapshot.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { denoEval, readLineJs, shellServer, waitFor } from "./processes.ts";

const posixOnly = { ignore: isWindows };

type Listing = { jobs: { id: number; state: string; exit_code: number | null }[] };

Deno.test({
  name: "shell_run returns exit code, stdout, then stderr",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const command = denoEval("console.log(`out`); console.error(`err`); Deno.exit(3)");
    const result = await c.call("shell_run", { command });
    assert.equal(result.isError, undefined);
    assert.match(textOf(result), /^exit 3 after \d+\.\ds\nout\n\[stderr\]\nerr$/);
  },
});

Deno.test({
  name: "shell_run without output says so, and stderr appears only when there is some",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    assert.match(await c.text("shell_run", { command: "exit 0" }), /^exit 0 after \d+\.\ds\n\(no output\)$/);
    assert.doesNotMatch(await c.text("shell_run", { command: "echo only-out" }), /stderr/);
  },
});

Deno.test({
  name: "shell_run hands back a running job after wait_s, which shell_output then follows",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const text = await c.text("shell_run", {
      command: "echo started; sleep 300",
      // pwsh alone takes longer than 0.3 s to start.
      wait_s: isWindows ? 5 : 0.3,
    });
    assert.match(text, /^job 1 running \d+\.\ds\nstarted\n\[still running: shell_output job_id=1 follows it/);
    // run already showed "started": the next read has nothing new.
    assert.match(await c.text("shell_output", { job_id: 1 }), /^job 1 running .*\n\(no new output\)$/);
    assert.match(await c.text("shell_kill", { job_id: 1 }), /^job 1 killed/);
  },
});

Deno.test({
  name: "stdin is closed by default: cat ends at once instead of waiting forever",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    assert.match(
      await c.text("shell_run", {
        command: denoEval("for await (const _ of Deno.stdin.readable); console.log(`after-cat`)"),
      }),
      /^exit 0 after .*\nafter-cat$/,
    );
  },
});

Deno.test({
  name: "shell_input feeds a line-reading program and eof ends it",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const started = await c.text("shell_start", {
      command: denoEval(
        `${readLineJs} let line; while ((line = await readLine()) !== null) console.log(\`got \${line}\`); console.log(\`bye\`)`,
      ),
      stdin: "pipe",
    });
    assert.match(started, /^job 1 running \(pid \d+\); follow it with shell_output job_id=1$/);
    assert.match(await c.text("shell_input", { job_id: 1, text: "hello" }), /\ngot hello$/);
    assert.match(await c.text("shell_input", { job_id: 1, text: "two\n" }), /\ngot two$/);
    await c.text("shell_input", { job_id: 1, text: "", eof: true });
    let text = "";
    await waitFor("the job to exit", async () => {
      text = await c.text("shell_output", { job_id: 1, since: 0, wait_s: 5 });
      return text.includes("exit 0");
    });
    assert.match(text, /^job 1 exit 0 after .*\ngot hello\ngot two\nbye$/);
    const closed = await c.call("shell_input", { job_id: 1, text: "late" });
    assert.equal(closed.isError, true);
    assert.match(textOf(closed), /^Error \[conflict\]: Cannot write to job 1: its stdin is closed/);
  },
});

Deno.test({
  name: "shell_input to a job that does not read returns at once, queues the rest in order, then eof",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path, { inputWaitMs: 300 }));
    // The job reads nothing until the file "go" exists; then it copies its stdin to out.txt.
    await c.text("shell_start", {
      command: denoEval(
        "while (!(await Deno.stat(`go`).catch(() => null))) await new Promise((go) => setTimeout(go, 50));" +
          " await Deno.writeFile(`out.txt`, Deno.stdin.readable)",
      ),
      stdin: "pipe",
      timeout_s: 60,
    });
    const big = "x".repeat(300_000);
    const first = await c.text("shell_input", { job_id: 1, text: big });
    assert.match(first, /^job 1 running /);
    assert.match(
      first,
      /\[stdin: [\d,]+ of 300,001 bytes taken so far; [\d,]+ bytes queued, written in order/,
    );
    const second = await c.text("shell_input", { job_id: 1, text: "tail", eof: true });
    assert.match(second, /\[stdin: 0 of 5 bytes taken so far; .* bytes queued, .*; stdin closes after it\]$/);
    await Deno.writeTextFile(ws.join("go"), "");
    await waitFor(
      "cat to reach the end of its input",
      async () => /exit 0/.test(await c.text("shell_output", { job_id: 1, wait_s: 5 })),
    );
    assert.equal(await Deno.readTextFile(ws.join("out.txt")), `${big}\ntail\n`);
  },
});

Deno.test({
  name: "a job killed with input still queued ends cleanly, and later input is refused",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path, { inputWaitMs: 200 }));
    await c.text("shell_start", { command: "sleep 300", stdin: "pipe" });
    assert.match(await c.text("shell_input", { job_id: 1, text: "x".repeat(300_000) }), /bytes queued/);
    assert.match(await c.text("shell_kill", { job_id: 1 }), /^job 1 killed/);
    const late = await c.call("shell_input", { job_id: 1, text: "late" });
    assert.match(textOf(late), /^Error \[conflict\]: Cannot write to job 1: its stdin is closed/);
  },
});

Deno.test({
  name: "shell_input talks to python3 -i, whose prompts go to stderr",
  ignore: isWindows || !onPath("python3"),
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    await c.text("shell_start", { command: "python3 -i -q", stdin: "pipe" });
    let reply = await c.text("shell_input", { job_id: 1, text: "print(6 * 7)" });
    await waitFor("python's answer", async () => {
      reply += await c.text("shell_output", { job_id: 1, wait_s: 1 });
      return reply.includes("42");
    });
    assert.match(reply, /^42$/m);
    await c.text("shell_input", { job_id: 1, text: "", eof: true });
    await waitFor(
      "python to exit",
      async () => /exit 0/.test(await c.text("shell_output", { job_id: 1, wait_s: 5 })),
    );
  },
});

Deno.test({
  name: "shell_input on a job without a stdin pipe says how to get one",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    await c.text("shell_run", { command: "exit 0" });
    const result = await c.call("shell_input", { job_id: 1, text: "x" });
    assert.match(textOf(result), /^Error \[invalid_argument\]: Cannot write to job 1: .*stdin="pipe"/);
  },
});

Deno.test({
  name: "cursor reads return every byte exactly once across many calls",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    // ~110 KB in bursts: more than one response page, and reads interleave with the writes.
    await c.text("shell_start", {
      command: denoEval(
        "for (let i = 1; i <= 12000; i++) { console.log(`line${i}`);" +
          " if (i % 1000 === 0) await new Promise((go) => setTimeout(go, 10)); }",
      ),
    });
    const pages: string[] = [];
    let header = "";
    // Follow the cursor as a client does: while the job runs, more bytes wait or its output is still open.
    // How many calls that takes depends on how the output arrives (a loaded machine splits it finely), so
    // only a deadline bounds the loop, not a count of calls.
    const deadline = performance.now() + 60_000;
    while (performance.now() < deadline) {
      const text = await c.text("shell_output", { job_id: 1, wait_s: 5 });
      header = text.slice(0, text.indexOf("\n"));
      const body = text.slice(header.length + 1);
      if (body !== "(no new output)") pages.push(body);
      if (!/^job 1 running |more bytes|output is still open/.test(header)) break;
    }
    assert.match(
      header,
      /^job 1 exit 0 after /,
      `the job did not end well, or the reads never ended: ${header}`,
    );
    // Each response drops its final newline; a page that ends mid-line is continued by the next one.
    const seen = new Map<string, number>();
    for (const line of pages.join("\n").split("\n")) seen.set(line, (seen.get(line) ?? 0) + 1);
    const expected = Array.from({ length: 12000 }, (_, i) => `line${i + 1}`);
    const missing = expected.filter((line) => !seen.has(line));
    const twice = [...seen].filter(([, count]) => count > 1).map(([line]) => line);
    const stray = [...seen.keys()].filter((line) => !/^line\d+$/.test(line));
    const report = `${pages.length} pages; missing ${missing.slice(0, 5)} (${missing.length}); ` +
      `duplicated ${twice.slice(0, 5)} (${twice.length}); stray ${JSON.stringify(stray.slice(0, 3))}`;
    assert.equal(pages.join("").replaceAll("\n", ""), expected.join(""), report);
    assert.ok(pages.length >= 4, report);
  },
});

Deno.test({
  name: "shell_output since and filter re-read kept output without consuming it",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    await c.text("shell_run", { command: denoEval("console.log(`ok 1\\nERROR a\\nok 2\\nERROR b`)") });
    const filtered = await c.text("shell_output", { job_id: 1, since: 0, filter: "^ERROR" });
    assert.match(filtered, /\nERROR a\nERROR b$/);
    assert.match(await c.text("shell_output", { job_id: 1, since: -8 }), /\nERROR b$/);
    const bad = await c.call("shell_output", { job_id: 1, filter: "(" });
    assert.match(textOf(bad), /^Error \[invalid_argument\]: Cannot use filter "\("/);
  },
});

Deno.test({
  name: "a catastrophically slow filter is killed: timeout error, server still answers, nothing consumed",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path, { filterTimeoutMs: 1500 }));
    await c.text("shell_start", { command: denoEval("console.log(`${`a`.repeat(41)}b\\nok`)") });
    await waitFor("the job to exit", async () => {
      const listed = (await c.call("shell_list")).structuredContent as Listing;
      return listed.jobs[0].state === "exited";
    });
    // Backtracks 2^41 times on the first line: in-process, it would freeze the server for days.
    const slow = await c.call("shell_output", { job_id: 1, filter: "^(a|a)*$" });
    assert.equal(slow.isError, true);
    assert.match(
      textOf(slow),
      /^Error \[timeout\]: Cannot filter with "\^\(a\|a\)\*\$": the pattern took over 1\.5s .*simpler/,
    );
    assert.match(await c.text("shell_run", { command: "echo still-serving" }), /\nstill-serving$/);
    // The failed read consumed nothing: a plain read from the cursor still sees the output.
    assert.match(await c.text("shell_output", { job_id: 1, filter: "^ok$" }), /\nok$/);
  },
});

Deno.test({
  name: "filter tests only the first 4096 characters of a line but keeps the whole line",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const command = denoEval("console.log(`HEAD${`0`.repeat(5000)}TAIL\\nshort TAIL`)");
    await c.text("shell_run", { command });
    const head = await c.text("shell_output", { job_id: 1, since: 0, filter: "^HEAD" });
    assert.match(head, /\nHEAD0{5000}TAIL$/);
    const tail = await c.text("shell_output", { job_id: 1, since: 0, filter: "TAIL$" });
    assert.match(tail, /; next since=\d+\nshort TAIL$/);
  },
});

Deno.test({
  name: "long-poll returns as soon as the job ends",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    await c.text("shell_start", { command: "sleep 0.3; exit 4" });
    // Whichever comes first: the reply, or a deadline far below wait_s (50 s).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<"deadline">((resolve) =>
      timer = setTimeout(() => resolve("deadline"), 30_000)
    );
    const reply = c.text("shell_output", { job_id: 1, wait_s: 50 });
    const first = await Promise.race([reply, deadline]);
    clearTimeout(timer);
    assert.notEqual(first, "deadline", "the long-poll did not return on the job's exit");
    assert.match(await reply, /^job 1 exit 4 after/);
  },
});

Deno.test({
  name: "stderr and stdout: separate sections by default, exact order with merge_stderr",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const command = denoEval(
      "for (let i = 1; i <= 8; i++) { console.log(`out${i}`); console.error(`err${i}`); }",
    );
    const split = await c.text("shell_run", { command });
    assert.match(split, /\nout1\n.*out8\n\[stderr\]\nerr1\n.*err8$/s);
    const merged = await c.text("shell_run", { command, merge_stderr: true });
    const lines = merged.split("\n").slice(1);
    const expected = [1, 2, 3, 4, 5, 6, 7, 8].flatMap((i) => [`out${i}`, `err${i}`]);
    // PowerShell merges by reading a native program's two pipes itself: every line, in arrival order only.
    if (isWindows) assert.deepEqual(lines.toSorted(), expected.toSorted());
    else assert.deepEqual(lines, expected);
  },
});

Deno.test({
  name: "ANSI codes are stripped and \\r progress collapses, unless raw; NO_COLOR=1 is set",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    // JS escapes, kept literal by the shell: the program prints the escape bytes and carriage returns.
    const command = denoEval(
      "console.log(`\\x1b[1;31mred\\x1b[0m\\n10%\\r50%\\r100%\\nNO_COLOR=${Deno.env.get(`NO_COLOR`)}`)",
    );
    assert.match(await c.text("shell_run", { command }), /\nred\n100%\nNO_COLOR=1$/);
    const raw = await c.text("shell_output", { job_id: 1, since: 0, raw: true });
    assert.ok(raw.includes("\x1b[1;31mred\x1b[0m\n10%\r50%\r100%"));
  },
});

Deno.test({
  name: "50 MB of output: bounded memory, a capped response that says what was dropped and cut",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const text = await c.text("shell_run", {
      command: denoEval(
        "const out = Deno.stdout.writable.getWriter(); const mib = new TextEncoder().encode(`x`.repeat(1 << 20));" +
          " for (let left = 50_000_000; left > 0; left -= mib.length) await out.write(mib.subarray(0, left));" +
          " await out.write(new TextEncoder().encode(`\\nlast-line\\n`))",
      ),
      wait_s: 50,
    });
    assert.ok(text.length <= 30_000, `response has ${text.length} chars`);
    // One 50 MB line: the head ends mid-line, the cut names its cursor and what of it is gone.
    assert.match(
      text,
      /^job 1 exit 0 after [^\n]*\nx{14000,}…\n\[\.\.\. 0 lines \(1\.0M\) cut: shell_output job_id=1 since=(\d+) shows them; 48,\d{3},\d{3} bytes in it are gone \(a job keeps its first 64 KiB and last 1 MiB\) \.\.\.\]\n…x{14000,}\nlast-line$/,
    );
    const since = Number(text.match(/since=(\d+)/)![1]);
    const next = await c.text("shell_output", { job_id: 1 });
    assert.match(next, new RegExp(`^job 1 exit 0 after [^\\n]*; next since=${since + 29_600}; `));
    const list = (await c.call("shell_list")).structuredContent as Listing;
    assert.equal(list.jobs[0].exit_code, 0);
  },
});

Deno.test({
  name: "20 concurrent jobs each keep their own output",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => c.text("shell_run", { command: `echo job${i}; echo done${i}` })),
    );
    runs.forEach((text, i) => assert.match(text, new RegExp(`^exit 0 after .*\\njob${i}\\ndone${i}$`)));
  },
});

Deno.test({
  name: "limits: running jobs are capped, finished jobs evicted oldest first",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path, { maxRunning: 2, keepFinished: 2 }));
    for (let i = 0; i < 4; i++) await c.text("shell_run", { command: `echo ${i}` });
    const listed = (await c.call("shell_list")).structuredContent as Listing;
    assert.deepEqual(listed.jobs.map((job) => job.id), [3, 4]);
    const evicted = await c.call("shell_output", { job_id: 1 });
    assert.match(textOf(evicted), /^Error \[not_found\]: Cannot find job 1: no such job/);
    await c.text("shell_start", { command: "sleep 300" });
    await c.text("shell_start", { command: "sleep 300" });
    const third = await c.call("shell_start", { command: "sleep 300" });
    assert.match(
      textOf(third),
      /^Error \[unavailable\]: Cannot start "sleep 300": 2 jobs are already running/,
    );
  },
});

Deno.test({
  name: "errors: bad job id, missing cwd, cwd outside, unknown and missing shells, empty command",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace({ "sub/": "", "file.txt": "x" });
    await using c = await connect(shellServer(ws.path, { serverEnv: { PATH: "/usr/bin:/bin" } }));
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["shell_output", { job_id: 9 }, /^Error \[not_found\]: Cannot find job 9: no such job .*no jobs yet/],
      ["shell_kill", { job_id: 9 }, /^Error \[not_found\]/],
      [
        "shell_run",
        { command: "pwd", cwd: "nope" },
        /^Error \[not_found\]: Cannot run in "nope": no such folder/,
      ],
      [
        "shell_run",
        { command: "pwd", cwd: "file.txt" },
        /^Error \[invalid_argument\]: Cannot run in "file.txt"/,
      ],
      ["shell_run", { command: "pwd", cwd: "/" }, /^Error \[outside_workspace\]/],
      ["shell_run", { command: "x", shell: "fish" }, /^Error \[invalid_argument\]: .*"shell"/],
      [
        "shell_run",
        { command: "x", shell: "cmd" },
        /^Error \[unavailable\]: Cannot find shell "cmd" on PATH; available: bash, sh/,
      ],
      ["shell_run", { command: "  " }, /^Error \[invalid_argument\]: Cannot run an empty command/],
      [
        "shell_run",
        { command: "echo a\0b" },
        /^Error \[invalid_argument\]: Cannot run a command containing a NUL/,
      ],
      ["shell_run", { command: "x", timeout_s: 0 }, /^Error \[invalid_argument\]: Cannot use timeout_s 0/],
      ["shell_output", { job_id: 1, wait_s: 99 }, /^Error \[invalid_argument\]: .*"wait_s"/],
    ];
    for (const [tool, args, expected] of cases) {
      const result = await c.call(tool, args);
      assert.equal(result.isError, true, `${tool} ${JSON.stringify(args)}`);
      assert.match(textOf(result), expected);
    }
    assert.match(
      await c.text("shell_run", { command: "pwd", cwd: "sub" }),
      new RegExp(`\\n${ws.join("sub")}$`),
    );
  },
});

Deno.test({
  name: "env overlays the server's environment; SHELL_MCP_ENV_ALLOW passes only what it names",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    const serverEnv = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", SECRET: "s3cret", LC_X: "lc" };
    const command = 'echo "[$SECRET][$LC_X][$EXTRA]"';
    {
      await using c = await connect(shellServer(ws.path, { serverEnv: { ...serverEnv } }));
      // Without an allowlist the job inherits the real process environment plus the overlay.
      assert.match(await c.text("shell_run", { command, env: { EXTRA: "e" } }), /\n\[.*\]\[.*\]\[e\]$/);
    }
    await using c = await connect(shellServer(ws.path, { serverEnv, envAllow: ["PATH", "LC_*"] }));
    assert.match(await c.text("shell_run", { command, env: { EXTRA: "e" } }), /\n\[\]\[lc\]\[e\]$/);
  },
});

Deno.test({
  name: "shell_run sends the last output line as progress when the client asks",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const messages: string[] = [];
    await c.client.callTool(
      { name: "shell_run", arguments: { command: "echo compiling; sleep 2.2; echo done" } },
      undefined,
      { onprogress: (progress) => messages.push(progress.message ?? "") },
    );
    assert.ok(messages.includes("compiling"), JSON.stringify(messages));
  },
});

Deno.test("tools/list fits the token budget and matches the snapshot", async () => {
  await using ws = await tempWorkspace();
  await using c = await connect(shellServer(ws.path));
  const { tools } = await c.client.listTools();
  let tokens = 0;
  for (const tool of tools) {
    assert.ok(tool.description!.length <= 200, tool.name);
    for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      const description = (schema as { description?: string }).description ?? "";
      assert.ok(description.length <= 80, `${tool.name}.${name}`);
    }
    tokens += encode(tool.name + tool.description + JSON.stringify(tool.inputSchema)).length;
  }
  assert.ok(tokens <= 620, `tools/list takes ${tokens} tokens`);
  await assertSnapshot(new URL("../../../mcp/shell/tools.json", import.meta.url), tools);
});

function onPath(name: string): boolean {
  return (Deno.env.get("PATH") ?? "").split(":").some((dir) => {
    try {
      return Deno.statSync(`${dir}/${name}`).isFile;
    } catch {
      return false;
    }
  });
}

Deno.test({
  name: "a filtered long-poll consumes non-matching output and waits for a matching line",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    // Each `read` holds the job until the test sends a line: noise arrives first, the match only later.
    await c.text("shell_start", {
      command: denoEval(
        `${readLineJs} console.log(\`noise1\`); await readLine(); console.log(\`noise2\`); await readLine();` +
          " console.log(`MATCH`); console.log(`noise3`); await new Promise((go) => setTimeout(go, 300000))",
      ),
      stdin: "pipe",
    });
    const reply = c.text("shell_output", { job_id: 1, filter: "MATCH", wait_s: 50 });
    reply.catch(() => {}); // awaited below; a failed step before must not leave it unhandled
    await c.text("shell_input", { job_id: 1, text: "a" });
    await c.text("shell_input", { job_id: 1, text: "b" });
    const text = await reply;
    assert.match(text, /^job 1 running [^\n]*\nMATCH$/);
    assert.match(await c.text("shell_kill", { job_id: 1 }), /^job 1 killed/);
  },
});

Deno.test({
  name: "a filtered long-poll finds a line that arrives in two pieces",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    await c.text("shell_start", {
      command: denoEval(
        `${readLineJs} const write = (text) => Deno.stdout.writeSync(new TextEncoder().encode(text));` +
          " write(`noise\\nMAT`); await readLine(); write(`CH\\n`); await new Promise((go) => setTimeout(go, 300000))",
      ),
      stdin: "pipe",
    });
    const reply = c.text("shell_output", { job_id: 1, filter: "MATCH", wait_s: 10 });
    reply.catch(() => {}); // awaited below
    // The filter has read the first piece ("noise\n" at least) before the second is printed.
    await waitFor("the filtered read to take the noise line", async () => {
      const listed = (await c.call("shell_list")).structuredContent as { jobs: { unread_bytes: number }[] };
      return listed.jobs[0].unread_bytes <= 3;
    });
    await c.text("shell_input", { job_id: 1, text: "a" });
    assert.match(await reply, /^job 1 running [^\n]*\nMATCH$/);
    assert.match(await c.text("shell_kill", { job_id: 1 }), /^job 1 killed/);
  },
});

Deno.test({
  name: "a filtered read that matches nothing says how much new output it scanned",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    await c.text("shell_run", { command: denoEval("console.log(`one\\ntwo`)") });
    // The job has ended: the wait ends at once, with nothing matched in 2 lines.
    const text = await c.text("shell_output", { job_id: 1, since: 0, filter: "zzz", wait_s: 50 });
    assert.match(text, /^job 1 exit 0 [^\n]*; next since=8\n\(no line matched: 2 new lines, 8 bytes\)$/);
  },
});

Deno.test({
  name: "after output was dropped, more bytes counts only kept bytes and a read resumes at a line start",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    await c.text("shell_run", {
      command: denoEval("console.log(Array.from({ length: 300000 }, (_, i) => i + 1).join(`\\n`))"),
    });
    const lines = Array.from({ length: 300000 }, (_, i) => `${i + 1}\n`);
    const total = lines.join("").length;
    const tailStart = total - 1024 * 1024;
    const first = await c.text("shell_output", { job_id: 1, since: 0 });
    const header = first.slice(0, first.indexOf("\n"));
    const dropped = tailStart - 65536;
    // A page holds at most 29,600 bytes and ends at the last line end within them.
    let pageEnd = 0;
    for (let i = 0; pageEnd + lines[i].length <= 29_600; i++) pageEnd += lines[i].length;
    const more = 65536 - pageEnd + 1024 * 1024;
    assert.equal(
      header.replace(/after \d[\d.hms]*/, "after T"),
      `job 1 exit 0 after T; next since=${pageEnd}; ${more.toLocaleString("en-US")} more bytes: call again ` +
        `(${dropped.toLocaleString("en-US")} bytes before them were dropped)`,
    );
    // Where the head ends, in the dropped middle: the read skips to the first full line of the kept tail.
    const second = await c.text("shell_output", { job_id: 1, since: 65536 });
    let offset = 0;
    let firstKept = 0;
    while (offset < tailStart) offset += lines[firstKept++].length;
    if (offset === tailStart) offset += lines[firstKept++].length; // the log cannot know a line starts there
    const skipped = offset - 65536;
    const body = second.split("\n").slice(1);
    assert.equal(
      body[0],
      `[${skipped.toLocaleString("en-US")} bytes dropped mid-output (jobs keep the first 64K and last 1M); ` +
        "resuming at the next line start]",
    );
    assert.equal(body[1], String(firstKept + 1));
    assert.equal(body[2], String(firstKept + 2));
  },
});
