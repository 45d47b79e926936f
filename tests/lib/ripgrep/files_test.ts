import assert from "node:assert/strict";
import { listFiles, withoutDotPrefix } from "../../../lib/ripgrep/files.ts";
import { BESIDE_NAME, bundledPath, locateRipgrep, ripgrepBeside } from "../../../lib/ripgrep/locate.ts";
import { RipgrepRun } from "../../../lib/ripgrep/run.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { toSlashes } from "../../../lib/platform/mod.ts";

async function rg() {
  const found = await locateRipgrep();
  assert.ok(found, "ripgrep must be found (bundled through npm:@vscode/ripgrep)");
  return found;
}

async function collect(paths: AsyncGenerator<string>): Promise<string[]> {
  const out: string[] = [];
  // Without `slashes` ripgrep prints the OS separator (`\` on Windows).
  for await (const path of paths) out.push(toSlashes(path));
  return out.sort();
}

Deno.test("locateRipgrep finds the bundled ripgrep 15", async () => {
  const found = await rg();
  assert.equal(found.source, "bundled");
  assert.match(found.version, /^15\./);
});

Deno.test("listFiles respects .gitignore and opts out with noIgnore and hidden", async () => {
  await using ws = await tempWorkspace({
    ".git/HEAD": "ref: refs/heads/main\n",
    ".gitignore": "build/\n",
    "src/a.ts": "a",
    "build/out.js": "x",
    ".hidden/h.txt": "h",
  });
  const base = await collect(listFiles(await rg(), { cwd: ws.path }).paths);
  assert.deepEqual(base, ["src/a.ts"]);
  const all = await collect(listFiles(await rg(), { cwd: ws.path, noIgnore: true, hidden: true }).paths);
  assert.deepEqual(all, [".gitignore", ".hidden/h.txt", "build/out.js", "src/a.ts"]);
});

Deno.test("listFiles applies globs and negated globs", async () => {
  await using ws = await tempWorkspace({ "a.ts": "", "b.js": "", "dist/c.ts": "" });
  const listed = await collect(listFiles(await rg(), { cwd: ws.path, globs: ["*.ts", "!dist/**"] }).paths);
  assert.deepEqual(listed, ["a.ts"]);
});

Deno.test("stopping early kills ripgrep and reports the run as stopped", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 300; i++) files[`f${i}.txt`] = "x";
  await using ws = await tempWorkspace(files);
  const { run, paths } = listFiles(await rg(), { cwd: ws.path });
  const first: string[] = [];
  for await (const path of paths) {
    first.push(path);
    if (first.length === 3) break;
  }
  assert.equal(first.length, 3);
  const exit = await run.exit;
  // ripgrep may have finished writing 300 names before the kill landed; either way nothing leaks.
  assert.ok(exit.stopped || exit.code === 0);
});

Deno.test("a bad regex exits 2 with ripgrep's own explanation on stderr", async () => {
  await using ws = await tempWorkspace({ "a.txt": "x" });
  const run = new RipgrepRun(await rg(), ["--json", "a(", "."], { cwd: ws.path });
  for await (const _ of run.lines()) { /* drain */ }
  const exit = await run.exit;
  assert.equal(exit.code, 2);
  assert.match(exit.stderr, /unclosed group/);
});

Deno.test("RG_PATH wins; a RG_PATH that is not ripgrep finds nothing", async () => {
  const found = await rg();
  assert.deepEqual(await locateRipgrep({ RG_PATH: found.path }), { ...found, source: "RG_PATH" });
  assert.equal(await locateRipgrep({ RG_PATH: "/nonexistent/rg" }), null);
});

Deno.test("listFiles: inGitRepo false honours .gitignore without .git; sort newest and path", async () => {
  await using ws = await tempWorkspace({
    ".gitignore": "out/\n",
    "b.txt": "",
    "a/c.txt": "",
    "out/x.txt": "",
  });
  const now = Date.now() / 1000;
  await Deno.utime(ws.join("b.txt"), now - 50, now - 50);
  await Deno.utime(ws.join("a/c.txt"), now - 100, now - 100);
  const list = async (options: Partial<Parameters<typeof listFiles>[1]>) => {
    const out: string[] = [];
    for await (const path of listFiles(await rg(), { cwd: ws.path, ...options }).paths) {
      out.push(options.slashes ? path : toSlashes(path));
    }
    return out;
  };
  assert.deepEqual((await list({})).sort(), ["a/c.txt", "b.txt", "out/x.txt"]);
  assert.deepEqual(await list({ inGitRepo: false, sort: "newest", slashes: true }), ["b.txt", "a/c.txt"]);
  assert.deepEqual(await list({ inGitRepo: false, sort: "path" }), ["a/c.txt", "b.txt"]);
});

Deno.test("RipgrepRun.lines keeps a line that spans many pipe chunks whole", async () => {
  const long = "x".repeat(3_000_000) + "NEEDLE" + "y".repeat(1_000_000);
  await using ws = await tempWorkspace({ "a.txt": `short NEEDLE\n${long}\nlast NEEDLE` });
  const run = new RipgrepRun(await rg(), ["--no-config", "NEEDLE", "a.txt"], { cwd: ws.path });
  const lines: string[] = [];
  for await (const line of run.lines()) lines.push(line);
  assert.deepEqual(lines.map((l) => l.length), ["short NEEDLE".length, long.length, "last NEEDLE".length]);
  assert.equal(lines[1], long);
  assert.equal((await run.exit).code, 0);
});

Deno.test("ripgrepBeside finds the copy deno task install puts beside compiled executables", async () => {
  await using ws = await tempWorkspace();
  assert.equal(await ripgrepBeside(ws.path), null);
  const bundled = await bundledPath();
  assert.ok(bundled);
  await Deno.copyFile(bundled, ws.join(BESIDE_NAME));
  await Deno.chmod(ws.join(BESIDE_NAME), 0o755).catch(() => {});
  const found = await ripgrepBeside(ws.path);
  assert.equal(found?.source, "beside");
  assert.match(found?.version ?? "", /^15\./);
});

Deno.test("listed paths lose ripgrep's ./ prefix, also Windows' .\\ one", () => {
  assert.equal(withoutDotPrefix("./src/a.ts"), "src/a.ts");
  assert.equal(withoutDotPrefix(".\\src\\a.ts"), "src\\a.ts");
  assert.equal(withoutDotPrefix(".hidden/h.txt"), ".hidden/h.txt");
  assert.equal(withoutDotPrefix("../x"), "../x");
  assert.equal(withoutDotPrefix("src/a.ts"), "src/a.ts");
});
