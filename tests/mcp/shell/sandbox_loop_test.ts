/** The everyday loop still works sandboxed: git status and commit, deno test, npm test, python -m pytest. */
import assert from "node:assert/strict";
import { connect } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { shellServer } from "./processes.ts";
import { bwrapUsable, git } from "./sandbox_support.ts";

async function works(program: string, args: string[]): Promise<boolean> {
  try {
    return (await new Deno.Command(program, { args, stdout: "null", stderr: "null" }).output()).success;
  } catch {
    return false;
  }
}

const hasNpm = await works("npm", ["--version"]);
const hasPytest = await works("python3", ["-m", "pytest", "--version"]);

Deno.test({
  name: "sandboxed loop: git status/commit, deno test, npm test, python -m pytest in the workspace",
  ignore: !bwrapUsable,
  fn: async (t) => {
    await using ws = await tempWorkspace({
      "README.md": "# project\n",
      "a_test.ts": 'Deno.test("adds", () => { if (1 + 1 !== 2) throw new Error("math"); });\n',
      "package.json": JSON.stringify({
        name: "p",
        version: "1.0.0",
        scripts: { test: "node -e \"console.log('npm-ok')\"" },
      }),
      "test_math.py": "def test_adds():\n    assert 1 + 1 == 2\n",
    });
    await git(ws.path, ["init", "-q"]);
    await git(ws.path, ["add", "README.md"]);
    await git(ws.path, ["commit", "-qm", "first"]);
    await using c = await connect(shellServer(ws.path));
    const run = (command: string) => c.text("shell_run", { command, wait_s: 50 });

    await t.step("git status and commit", async () => {
      const text = await run(
        "echo change >> README.md && git status --short && git add -A && " +
          "git -c user.name=agent -c user.email=agent@localhost commit -qm second && git log --oneline | wc -l",
      );
      assert.match(
        text,
        /^exit 0 after [^\n]*\n M README\.md\n\?\? a_test\.ts\n\?\? package\.json\n\?\? test_math\.py\n2$/,
      );
      // The commit is real (on the host), and no placeholder was committed: git ignores empty folders.
      const files = await git(ws.path, ["ls-files"]);
      assert.deepEqual(files.trim().split("\n"), ["README.md", "a_test.ts", "package.json", "test_math.py"]);
    });
    await t.step("deno test", async () => {
      assert.match(await run("deno test --quiet a_test.ts"), /^exit 0 after [^\n]*\n[\s\S]*ok \| 1 passed/);
    });
    await t.step({
      name: "npm test",
      ignore: !hasNpm,
      fn: async () => {
        assert.match(await run("npm test"), /^exit 0 after [^\n]*\n[\s\S]*npm-ok/);
      },
    });
    await t.step({
      name: "python -m pytest",
      ignore: !hasPytest,
      fn: async () => {
        assert.match(
          await run("python3 -m pytest -q -p no:cacheprovider"),
          /^exit 0 after [^\n]*\n[\s\S]*1 passed/,
        );
      },
    });
  },
});
