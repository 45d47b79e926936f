/**
 * The Seatbelt engine for real (macOS only; the Actions macOS runner runs it): `sandbox-exec -p <profile>`
 * around `sh -c`, each attack performed, its failure and the untouched file checked.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { os } from "../../../lib/platform/mod.ts";
import { SANDBOX_EXEC, seatbeltCommand, seatbeltProfile } from "../../../lib/sandbox/seatbelt.ts";
import type { NetworkPlan, SandboxPlan } from "../../../lib/sandbox/plan.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const ignore = os !== "darwin";

interface Fixture extends AsyncDisposable {
  root: string;
  plan: SandboxPlan;
  /** Runs `script` with /bin/sh in the sandbox; cwd the workspace. */
  run(script: string, options?: { network?: NetworkPlan; proxyPort?: number }): Promise<Ran>;
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function fixture(): Promise<Fixture> {
  const ws = await tempWorkspace({
    "ws/.git/hooks/": "",
    "ws/.git/config": "[core]\n",
    "outside/target.txt": "outside\n",
    "home/.ssh/id_ed25519": "SECRET-KEY\n",
    "temp/": "",
    "cache/": "",
  });
  const plan: SandboxPlan = {
    writable: [ws.join("ws")],
    protectedPaths: [ws.join("ws", ".git", "hooks"), ws.join("ws", ".git", "config")],
    denyRead: [ws.join("home", ".ssh")],
    temp: ws.join("temp"),
    cache: ws.join("cache"),
    network: { kind: "off" },
  };
  return {
    root: ws.path,
    plan,
    async run(script, options = {}) {
      const profile = seatbeltProfile({ ...plan, network: options.network ?? plan.network }, options);
      const [program, ...args] = seatbeltCommand(profile, ["/bin/sh", "-c", script]);
      const output = await new Deno.Command(program, {
        args,
        cwd: ws.join("ws"),
        clearEnv: true,
        env: {
          PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
          HOME: ws.join("home"),
          TMPDIR: ws.join("temp"),
        },
        stdin: "null",
      }).output();
      const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
      return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
    },
    [Symbol.asyncDispose]: () => ws[Symbol.asyncDispose](),
  };
}

async function names(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) found.push(entry.name);
  return found.sort();
}

function refused(ran: Ran, what: string): void {
  assert.notEqual(ran.code, 0, `${what} went through: ${ran.stdout}${ran.stderr}`);
}

Deno.test({ name: "seatbelt: sandbox-exec is where the engine runs it", ignore }, async () => {
  assert.ok((await Deno.stat(SANDBOX_EXEC)).isFile);
});

Deno.test({ name: "seatbelt: a write in the workspace and the temp folder lands", ignore }, async () => {
  await using box = await fixture();
  const ran = await box.run(`echo inside > a.txt && mkdir -p src && echo t > "$TMPDIR/t" && echo done`);
  assert.equal(ran.code, 0, ran.stderr);
  assert.equal(await Deno.readTextFile(join(box.root, "ws", "a.txt")), "inside\n");
  assert.equal(await Deno.readTextFile(join(box.root, "temp", "t")), "t\n");
});

Deno.test({
  name: "seatbelt: writes outside are refused, directly, through a symlink and a hard link",
  ignore,
}, async () => {
  await using box = await fixture();
  const target = join(box.root, "outside", "target.txt");
  refused(await box.run(`echo x > "${join(box.root, "outside", "new.txt")}"`), "a write outside");
  refused(await box.run(`echo x >> "$HOME/.bashrc"`), "a write to ~/.bashrc");
  refused(await box.run(`ln -s "${target}" link && echo pwned >> link`), "a write through a symlink");
  refused(await box.run(`ln "${target}" hard && echo pwned >> hard`), "a write through a hard link");
  assert.equal(await Deno.readTextFile(target), "outside\n");
  await assert.rejects(Deno.stat(join(box.root, "outside", "new.txt")), Deno.errors.NotFound);
  await assert.rejects(Deno.stat(join(box.root, "home", ".bashrc")), Deno.errors.NotFound);
});

Deno.test({
  name: "seatbelt: protected paths are refused, existing or not, and cannot be moved away",
  ignore,
}, async () => {
  await using box = await fixture();
  const ws = join(box.root, "ws");
  refused(await box.run("printf '#!/bin/sh\\n' > .git/hooks/pre-commit"), "a planted hook");
  refused(await box.run("printf '\\tfsmonitor = touch pwned\\n' >> .git/config"), "fsmonitor in .git/config");
  refused(await box.run("mkdir .vscode"), "a new .vscode");
  refused(await box.run("mkdir -p .VSCode && echo '{}' > .VSCode/tasks.json"), "a .vscode in another case");
  refused(await box.run("echo x > .envrc"), "an .envrc");
  refused(await box.run("mv .git g"), "moving .git away");
  refused(await box.run(`mv "${ws}" "$TMPDIR/ws"`), "moving the workspace away");
  assert.equal(await Deno.readTextFile(join(ws, ".git", "config")), "[core]\n");
  assert.deepEqual(await names(join(ws, ".git", "hooks")), []);
  assert.deepEqual(await names(ws), [".git"]);
});

Deno.test({ name: "seatbelt: unreadable paths are refused in any spelling", ignore }, async () => {
  await using box = await fixture();
  for (const path of ["$HOME/.ssh/id_ed25519", "$HOME/.SSH/id_ed25519"]) {
    const ran = await box.run(`cat "${path}"`);
    refused(ran, `reading ${path}`);
    assert.doesNotMatch(ran.stdout, /SECRET/);
  }
});

Deno.test({ name: "seatbelt: the job cannot signal the server", ignore }, async () => {
  await using box = await fixture();
  refused(await box.run(`kill -0 ${Deno.pid}`), "a signal to the server");
});

Deno.test(
  { name: "seatbelt: network off refuses loopback; allow reaches the proxy's port only", ignore },
  async () => {
    await using box = await fixture();
    using proxy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    using other = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const connect = (port: number) => `/bin/bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}'`;
    refused(await box.run(connect(proxy.addr.port)), "a connection with the network off");
    const network: NetworkPlan = { kind: "allow", domains: ["example.com"] };
    const accepted = proxy.accept().then((conn) => conn.close());
    const through = await box.run(connect(proxy.addr.port), { network, proxyPort: proxy.addr.port });
    assert.equal(through.code, 0, through.stderr);
    await accepted;
    refused(await box.run(connect(other.addr.port), { network, proxyPort: proxy.addr.port }), "another port");
  },
);

Deno.test({ name: "seatbelt: git status and commit work in the workspace", ignore }, async () => {
  await using box = await fixture();
  const ws = join(box.root, "ws");
  await Deno.remove(join(ws, ".git"), { recursive: true });
  const init = await new Deno.Command("git", { args: ["init", "-q", ws] }).output();
  assert.equal(init.code, 0, new TextDecoder().decode(init.stderr));
  const ran = await box.run(
    "echo a > a.txt && git add a.txt && git -c user.name=t -c user.email=t@t commit -qm first && git status --short",
  );
  assert.equal(ran.code, 0, ran.stderr);
});
