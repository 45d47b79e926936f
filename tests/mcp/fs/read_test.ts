import assert from "node:assert/strict";
import { basename } from "node:path";
import { textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { footerOf, fsClient, numberedLines, pageLines, webSha256 } from "./_fixture.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

const encoder = new TextEncoder();

Deno.test("fs_read numbers lines cat -n style and pages through a file, every line exactly once", async () => {
  await using ws = await tempWorkspace({ "log.txt": numberedLines(5000) });
  await using c = await fsClient(ws.path);
  const first = await c.text("fs_read", { path: "log.txt" });
  assert.match(first, /^log\.txt · .* · 5,000 lines · LF · sha256 [0-9a-f]{64}\n {5}1\tline 1\n/);
  assert.equal(footerOf(first), "[lines 1-2000 of 5,000; next: offset=2001]");
  const seen: number[] = [];
  let offset: number | undefined = 1;
  let pages = 0;
  while (offset !== undefined && pages++ < 10) {
    const page = await c.text("fs_read", { path: "log.txt", offset, limit: 1500 });
    for (const [number, text] of pageLines(page)) {
      assert.equal(text, `line ${number}`);
      seen.push(number);
    }
    const next = footerOf(page).match(/next: offset=(\d+)/);
    offset = next ? Number(next[1]) : undefined;
  }
  assert.deepEqual(seen, Array.from({ length: 5000 }, (_, i) => i + 1));
  assert.equal(pages, 4);
});

Deno.test("fs_read header carries the SHA-256 of the whole file's bytes, even for a partial page", async () => {
  const content = "α\r\nβ\nγ" + numberedLines(3000);
  await using ws = await tempWorkspace({ "a.txt": content });
  await using c = await fsClient(ws.path);
  const text = await c.text("fs_read", { path: "a.txt", offset: 2, limit: 1 });
  const sha = text.match(/sha256 ([0-9a-f]{64})/)?.[1];
  assert.equal(sha, await webSha256(encoder.encode(content)));
  assert.match(text, /mixed endings \(1 CRLF, 3,001 LF\)/);
});

Deno.test("fs_read reads the last lines with a negative offset", async () => {
  await using ws = await tempWorkspace({ "a.txt": numberedLines(100) });
  await using c = await fsClient(ws.path);
  const text = await c.text("fs_read", { path: "a.txt", offset: -3 });
  assert.deepEqual(pageLines(text), [[98, "line 98"], [99, "line 99"], [100, "line 100"]]);
  assert.equal(footerOf(text), "[lines 98-100 of 100]");
});

Deno.test("fs_read cuts lines over 2000 characters and says how much was cut", async () => {
  const long = "x".repeat(2500);
  const wide = "é".repeat(2100);
  // A 1 MB line spans several read chunks: its length is counted without holding it.
  const huge = "y".repeat(1024 * 1024);
  await using ws = await tempWorkspace({ "a.txt": `${long}\n${wide}\r\n${huge}\nend` });
  await using c = await fsClient(ws.path);
  const text = await c.text("fs_read", { path: "a.txt" });
  const lines = pageLines(text);
  assert.equal(lines[0][1], `${"x".repeat(2000)}…(+500 chars)`);
  assert.equal(lines[1][1], `${"é".repeat(2000)}…(+100 chars)`);
  assert.equal(lines[2][1], `${"y".repeat(2000)}…(+${1024 * 1024 - 2000} chars)`);
  assert.deepEqual(lines[3], [4, "end"]);
  assert.match(footerOf(text), /3 long lines cut at 2,000 chars/);
});

Deno.test("fs_read shows CRLF files without carriage returns and drops a UTF-8 BOM", async () => {
  await using ws = await tempWorkspace({ "crlf.txt": "\uFEFFone\r\ntwo\r\n" });
  await using c = await fsClient(ws.path);
  const text = await c.text("fs_read", { path: "crlf.txt" });
  assert.match(text.split("\n")[0], / · 2 lines · CRLF · UTF-8 BOM · sha256 /);
  assert.deepEqual(pageLines(text), [[1, "one"], [2, "two"]]);
  assert.ok(!text.includes("\r"));
});

Deno.test("fs_read counts a last line without a newline and says so", async () => {
  await using ws = await tempWorkspace({ "a.txt": "a\nb" });
  await using c = await fsClient(ws.path);
  const text = await c.text("fs_read", { path: "a.txt" });
  assert.match(text, / · 2 lines · LF · no final newline · /);
  assert.deepEqual(pageLines(text), [[1, "a"], [2, "b"]]);
});

Deno.test("fs_read says an empty file is empty", async () => {
  await using ws = await tempWorkspace({ "empty.txt": "" });
  await using c = await fsClient(ws.path);
  assert.equal(await c.text("fs_read", { path: "empty.txt" }), "empty.txt · 0 bytes · (empty file)");
});

Deno.test("fs_read refuses binary files with their size and type", async () => {
  const elf = new Uint8Array(4096);
  elf.set([0x7f, 0x45, 0x4c, 0x46]);
  const data = new Uint8Array([0x61, 0x62, 0x00, 0x63]);
  await using ws = await tempWorkspace({ "app": elf, "data.bin": data });
  await using c = await fsClient(ws.path);
  const result = await c.call("fs_read", { path: "app" });
  assert.equal(result.isError, true);
  assert.equal(
    textOf(result),
    'Error [invalid_argument]: Cannot read "app": binary file (ELF executable, 4.0K); fs_stat shows its metadata',
  );
  assert.match(await c.text("fs_read", { path: "data.bin" }), /binary file \(binary data, 4B\)/);
});

Deno.test("fs_read returns images as image content", async () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);
  await using ws = await tempWorkspace({ "pic.png": png });
  await using c = await fsClient(ws.path);
  const result = await c.call("fs_read", { path: "pic.png" });
  assert.equal(result.isError, undefined);
  assert.match(textOf(result), /^pic\.png · PNG image · 15B · sha256 [0-9a-f]{64}$/);
  const image = result.content[1];
  assert.equal(image.type, "image");
  if (image.type !== "image") return;
  assert.equal(image.mimeType, "image/png");
  assert.deepEqual(Uint8Array.from(atob(image.data), (ch) => ch.charCodeAt(0)), png);
});

Deno.test("fs_read refuses images over the image limit", async () => {
  const gif = new Uint8Array(2048);
  gif.set(encoder.encode("GIF89a"));
  await using ws = await tempWorkspace({ "big.gif": gif });
  await using c = await fsClient(ws.path, { imageBytes: 1024 });
  const result = await c.call("fs_read", { path: "big.gif" });
  assert.match(
    textOf(result),
    /^Error \[too_large\]: Cannot read "big\.gif": GIF image of 2\.0K is over the 1\.0K/,
  );
});

Deno.test("fs_read shows invalid UTF-8 as replacement characters and says so", async () => {
  await using ws = await tempWorkspace({
    "latin1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6f, 0x6b, 0x0a]),
  });
  await using c = await fsClient(ws.path);
  const text = await c.text("fs_read", { path: "latin1.txt" });
  assert.match(text, / · invalid UTF-8 shown as � · /);
  assert.deepEqual(pageLines(text), [[1, "caf\uFFFD"], [2, "ok"]]);
});

Deno.test("fs_read reads several files under their own headers and names the ones it could not read", async () => {
  await using ws = await tempWorkspace({ "a.ts": "A\n", "b.ts": "B1\nB2\n" });
  await using c = await fsClient(ws.path);
  const result = await c.call("fs_read", { path: ["a.ts", "b.js", "b.ts"] });
  assert.equal(result.isError, undefined);
  const text = textOf(result);
  assert.match(
    text,
    /^a\.ts · .*\n {5}1\tA\n\[lines 1-1 of 1\]\n\nb\.js\nError \[not_found\]: Cannot read "b\.js": no such file or folder; did you mean "b\.ts"\?\n\nb\.ts · /,
  );
  assert.match(text, / {5}2\tB2\n\[lines 1-2 of 2\]$/);
  // A list sent as a JSON string (a common model slip) is read as a list.
  assert.match(await c.text("fs_read", { path: '["a.ts","b.ts"]' }), /^a\.ts · [^]*\n\nb\.ts · /);
});

Deno.test("fs_read shares one output budget between files and says where to continue", async () => {
  await using ws = await tempWorkspace({ "a.txt": numberedLines(500), "b.txt": numberedLines(500) });
  await using c = await fsClient(ws.path, { readChars: 4000 });
  const text = await c.text("fs_read", { path: ["a.txt", "b.txt"] });
  assert.ok(text.length <= 4000, `output of ${text.length} chars is over the budget`);
  const footers = text.split("\n").filter((line) => line.startsWith("[lines"));
  assert.equal(footers.length, 2);
  for (const footer of footers) {
    assert.match(footer, /^\[lines 1-\d+ of 500; output cap reached; next: offset=\d+\]$/);
  }
});

Deno.test("fs_read past the end says how many lines the file has", async () => {
  await using ws = await tempWorkspace({ "a.txt": numberedLines(12) });
  await using c = await fsClient(ws.path);
  const result = await c.call("fs_read", { path: "a.txt", offset: 40 });
  assert.equal(
    textOf(result),
    'Error [invalid_argument]: Cannot read "a.txt" from line 40: it has 12 lines; use an offset from 1 to 12',
  );
});

Deno.test("fs_read of a folder or a missing file is an error with a way forward", async () => {
  await using ws = await tempWorkspace({ "src/main.ts": "x", "src/util.ts": "y" });
  await using c = await fsClient(ws.path);
  assert.match(
    await c.text("fs_read", { path: "src" }),
    /^Error \[invalid_argument\]: Cannot read "src": it is a folder; list it with fs_list$/,
  );
  assert.equal(
    await c.text("fs_read", { path: "src/mian.ts" }),
    'Error [not_found]: Cannot read "src/mian.ts": no such file or folder; did you mean "src/main.ts"?',
  );
  assert.equal(
    await c.text("fs_read", { path: "main.ts" }),
    'Error [not_found]: Cannot read "main.ts": no such file or folder; did you mean "src/main.ts"?',
  );
  assert.match(
    await c.text("fs_read", { path: "a.ts", limit: 0 }),
    /^Error \[invalid_argument\]: Cannot call fs_read: "limit"/,
  );
});

Deno.test("fs_read refuses paths that escape the workspace", { ignore: isWindows }, async () => {
  await using outside = await tempWorkspace({ "secret.txt": "s", "dir/x.txt": "x" });
  await using ws = await tempWorkspace({
    "ok.txt": "ok",
    "link.txt": { symlink: outside.join("secret.txt") },
    "linkdir": { symlink: outside.join("dir") },
  });
  await using c = await fsClient(ws.path);
  for (
    const path of [
      `../${basename(outside.path)}/secret.txt`,
      outside.join("secret.txt"),
      "link.txt",
      "linkdir/x.txt",
    ]
  ) {
    const result = await c.call("fs_read", { path });
    assert.equal(result.isError, true, path);
    assert.deepEqual(result._meta, { code: "outside_workspace" }, path);
  }
});

Deno.test("fs_read of the last lines keeps the end when the output cap cuts, and says where the rest is", async () => {
  await using ws = await tempWorkspace({ "a.txt": numberedLines(500) });
  await using c = await fsClient(ws.path, { readChars: 2000 });
  const text = await c.text("fs_read", { path: "a.txt", offset: -300 });
  const lines = pageLines(text);
  assert.deepEqual(lines.at(-1), [500, "line 500"]);
  const first = lines[0][0];
  assert.ok(first > 201 && lines.length === 500 - first + 1);
  assert.equal(
    footerOf(text),
    `[lines ${first}-500 of 500; output cap reached; earlier: offset=201, limit=${first - 201}]`,
  );
});

Deno.test("fs_read of several files returns an image among them as image content", async () => {
  const gif = new TextEncoder().encode("GIF89a\x01\x00\x01\x00");
  await using ws = await tempWorkspace({ "a.txt": "A\n", "dot.gif": gif, "b.txt": "B\n" });
  await using c = await fsClient(ws.path);
  const result = await c.call("fs_read", { path: ["a.txt", "dot.gif", "b.txt"] });
  assert.deepEqual(result.content.map((block) => block.type), ["text", "image", "text"]);
  assert.match(textOf(result), /^a\.txt · [^]*\n\ndot\.gif · GIF image · 10B · sha256 [0-9a-f]{64}$/);
});

Deno.test("fs_read pages cut by the output cap, of small and of big files, still give every line exactly once", async () => {
  const content = Array.from({ length: 700 }, (_, i) => `${i + 1}:${"w".repeat(i % 37)}\n`).join("");
  await using ws = await tempWorkspace({ "a.txt": content });
  for (const fullScanBytes of [64 * 1024 * 1024, 1024]) {
    await using c = await fsClient(ws.path, { readChars: 1500, fullScanBytes });
    const seen: number[] = [];
    let offset: number | undefined = 1;
    for (let pages = 0; offset !== undefined && pages < 200; pages++) {
      const page = await c.text("fs_read", { path: "a.txt", offset });
      for (const [number, text] of pageLines(page)) {
        assert.equal(text.split(":")[0], String(number));
        seen.push(number);
      }
      const next = footerOf(page).match(/next: offset=(\d+)/);
      offset = next ? Number(next[1]) : undefined;
    }
    assert.deepEqual(seen, Array.from({ length: 700 }, (_, i) => i + 1), `fullScanBytes ${fullScanBytes}`);
  }
});

Deno.test("fs_read env does not answer with a gitignored .env; a visible near-miss is still named", async () => {
  await using ws = await tempWorkspace({
    ".git/HEAD": "ref: refs/heads/main\n",
    ".gitignore": ".env\n",
    ".env": "API_KEY=hunter2\n",
    "env.example": "",
  });
  await using c = await fsClient(ws.path);
  assert.equal(
    await c.text("fs_read", { path: "env" }),
    'Error [not_found]: Cannot read "env": no such file or folder; did you mean "env.example"?',
  );
});
