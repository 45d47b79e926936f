/** Cuts name their cursor, and following the cursor reaches every kept byte exactly where it was cut. */
import assert from "node:assert/strict";
import { connect } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { denoEval, shellServer } from "./processes.ts";
const numbers = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

/** Calls shell_output (without since) until nothing more is kept; returns each response's body. */
async function follow(
  c: { text(name: string, args: Record<string, unknown>): Promise<string> },
  args: Record<string, unknown>,
): Promise<string[]> {
  const bodies: string[] = [];
  for (let guard = 0; guard < 200; guard++) {
    const text = await c.text("shell_output", args);
    const newline = text.indexOf("\n");
    bodies.push(text.slice(newline + 1));
    if (!text.slice(0, newline).includes("more bytes")) return bodies;
  }
  throw new Error("the cursor never reached the end");
}

Deno.test({
  name: "shell_run that cuts names the job and the cursor, and following it reaches every line",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const text = await c.text("shell_run", {
      command: denoEval("console.log(Array.from({ length: 10000 }, (_, i) => i + 1).join(`\\n`))"),
    });
    const match = text.match(
      /^job 1 exit 0 after [^\n]*\n([\s\S]*?)\n\[\.\.\. ([\d,]+) lines \(\d+K\) cut: shell_output job_id=1 since=(\d+) shows them \.\.\.\]\n([\s\S]*)$/,
    );
    assert.ok(match, text.slice(0, 200));
    const head = match[1].split("\n");
    const tail = match[4].split("\n");
    assert.equal(Number(match[2].replaceAll(",", "")), 10000 - head.length - tail.length);
    assert.equal(Number(match[3]), head.join("\n").length + 1);
    assert.equal(tail.at(-1), "10000");
    // No since: the next read starts at the first line cut, and following reaches the end.
    const followed = (await follow(c, { job_id: 1 })).join("\n").split("\n");
    assert.deepEqual([...head, ...followed], numbers(1, 10000));
  },
});

Deno.test({
  name: "a filtered read too big for one response stops at a whole chunk; following shows every match once",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    await c.text("shell_run", {
      command: denoEval("console.log(Array.from({ length: 9000 }, (_, i) => `match ${i + 1}`).join(`\\n`))"),
    });
    const first = await c.text("shell_output", { job_id: 1, since: 0, filter: "^match" });
    assert.match(
      first,
      /\n\[\.\.\. more matches after since=(\d+) did not fit: shell_output job_id=1 since=\1 with the same filter shows them \.\.\.\]$/,
    );
    const bodies = [
      first.slice(first.indexOf("\n") + 1),
      ...await follow(c, { job_id: 1, filter: "^match" }),
    ];
    const lines = bodies.join("\n").split("\n").filter((line) => !line.startsWith("[... more matches"));
    assert.deepEqual(lines, numbers(1, 9000).map((n) => `match ${n}`));
  },
});

Deno.test({
  name: "a page inside a long line ends with … and a marker, never inside an escape sequence",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    // 4,000 coloured "ab"s on one 44,000-byte line: 11 bytes each, so a 29,600-byte page ends inside one.
    await c.text("shell_run", {
      command: denoEval("console.log(`\\x1b[31mab\\x1b[0m`.repeat(4000) + `\\nend`)"),
    });
    const first = await c.text("shell_output", { job_id: 1, since: 0 });
    const pages = [first.slice(first.indexOf("\n") + 1), ...await follow(c, { job_id: 1 })];
    assert.equal(pages.length, 2);
    const pageEnd = /^(ab)+…\n\[the line goes on: shell_output job_id=1 since=\d+ continues it\]$/;
    assert.ok(pageEnd.test(pages[0]), pages[0].slice(-200));
    assert.ok(pages.every((page) => !page.includes("\x1b")));
    const joined = pages.join("").replace(/…\n\[the line goes on[^\]]*\]/, "");
    assert.ok(joined === `${"ab".repeat(4000)}\nend`, joined.slice(0, 100));
    // Raw pages too end where a sequence ends: the next page begins with a whole one or with text.
    const raw = await c.text("shell_output", { job_id: 1, since: 0, raw: true });
    // deno-lint-ignore no-control-regex -- escape bytes are what is tested
    const rawEnd = /\x1b[^…]*…\n\[the line goes on: shell_output job_id=1 since=(\d+) continues it\]$/;
    assert.ok(rawEnd.test(raw), raw.slice(-200));
    // deno-lint-ignore no-control-regex -- escape bytes are what is tested
    assert.ok(!/\x1b(\[[0-9;]*)?…/.test(raw), raw.slice(-200));
    const rest = await c.text("shell_output", { job_id: 1, raw: true });
    const restStart = rest.slice(rest.indexOf("\n") + 1, rest.indexOf("\n") + 8);
    // deno-lint-ignore no-control-regex -- escape bytes are what is tested
    assert.ok(/^(\x1b\[(31|0)m|a|b)/.test(restStart), JSON.stringify(restStart));
    assert.ok(rest.endsWith("\nend"), rest.slice(-100));
  },
});

Deno.test({
  name: "a matching line longer than a response is cut with a marker that says how to read it whole",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    await c.text("shell_run", {
      command: denoEval("console.log(`before\\nMATCH${`0`.repeat(100000)}`)"),
    });
    const text = await c.text("shell_output", { job_id: 1, since: 0, filter: "MATCH" });
    assert.ok(text.length <= 30_000, `${text.length}`);
    const marker =
      /\n\[\.\.\. [\d,]+ bytes \/ 0 lines cut: shell_output job_id=1 since=0 without filter shows them \.\.\.\]\n/;
    assert.ok(marker.test(text), text.slice(14_000, 16_000));
  },
});
