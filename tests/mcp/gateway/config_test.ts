import assert from "node:assert/strict";
import { dirname, join, resolve } from "node:path";
import {
  BUILTIN_SERVERS,
  ConfigError,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  loadConfig,
  parseConfig,
} from "../../../mcp/gateway/config.ts";
import { listServers, REPO_ROOT } from "../../../tools/catalog.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const FILE = "gateway.config.json";

function parse(config: unknown, env: Record<string, string | undefined> = {}) {
  return parseConfig(JSON.stringify(config), FILE, env);
}

function servers(entries: Record<string, unknown>, env: Record<string, string | undefined> = {}) {
  return parse({ mcpServers: entries }, env).servers;
}

/** The ConfigError message parsing `config` throws. */
function errorOf(config: unknown, env: Record<string, string | undefined> = {}): string {
  try {
    parseConfig(typeof config === "string" ? config : JSON.stringify(config), FILE, env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${error}`);
    return error.message;
  }
  assert.fail("expected the config to be refused");
}

Deno.test("config: a stdio entry and a builtin entry become ServerConfigs, in file order", () => {
  const cwd = resolve("/srv/github");
  const config = parse({
    mcpServers: {
      "github": {
        command: "npx",
        args: ["-y", "server-github"],
        env: { TOKEN: "t" },
        cwd,
        type: "stdio",
        enabled: false,
        timeout_s: 2.5,
        tool_timeouts_s: { search_code: 120 },
        connect_timeout_s: 10,
        tools: { allow: ["list_*"], deny: ["list_secrets"] },
        descriptions: { list_issues: "Issues of a repository" },
      },
      "my.fs": { builtin: "fs" },
    },
  });
  assert.equal(config.file, resolve(FILE));
  assert.deepEqual(config.servers, [
    {
      name: "github",
      prefix: "github",
      transport: { kind: "stdio", command: "npx", args: ["-y", "server-github"], env: { TOKEN: "t" }, cwd },
      enabled: false,
      connectTimeoutMs: 10_000,
      callTimeoutMs: 2_500,
      tools: { allow: ["list_*"], deny: ["list_secrets"] },
      descriptions: { list_issues: "Issues of a repository" },
      toolTimeoutsMs: { search_code: 120_000 },
    },
    {
      name: "my.fs",
      prefix: "my_fs",
      transport: { kind: "builtin", server: "fs" },
      enabled: true,
      connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
      callTimeoutMs: DEFAULT_CALL_TIMEOUT_MS,
      tools: { allow: [], deny: [] },
      descriptions: {},
      toolTimeoutsMs: {},
    },
  ]);
  assert.equal(DEFAULT_CONNECT_TIMEOUT_MS, 30_000);
});

Deno.test("config: a stdio entry needs only a command; no cwd stays undefined", () => {
  const [server] = servers({ echo: { command: "echo" } });
  assert.deepEqual(server.transport, { kind: "stdio", command: "echo", args: [], env: {} });
});

Deno.test("config: each bad value is refused with the file, the entry and the key in the message", () => {
  const cases: [unknown, string][] = [
    [
      { github: { command: "x", timeout_s: "ten" } },
      `mcpServers.github.timeout_s: expected a positive number, got "ten"`,
    ],
    [
      { github: { command: "x", timeout_s: 0 } },
      `mcpServers.github.timeout_s: expected a positive number, got 0`,
    ],
    [
      { github: { command: "x", connect_timeout_s: -1 } },
      `mcpServers.github.connect_timeout_s: expected a positive number, got -1`,
    ],
    [
      { github: { command: "x", enabled: "yes" } },
      `mcpServers.github.enabled: expected true or false, got "yes"`,
    ],
    [{ github: { command: "" } }, `mcpServers.github.command: expected a non-empty string, got ""`],
    [{ github: { command: ["npx"] } }, `mcpServers.github.command: expected a string, got an array`],
    [
      { github: { command: "x", args: "-y" } },
      `mcpServers.github.args: expected an array of strings, got "-y"`,
    ],
    [{ github: { command: "x", args: ["-y", 3] } }, `mcpServers.github.args[1]: expected a string, got 3`],
    [
      { github: { command: "x", env: { PORT: 8080 } } },
      `mcpServers.github.env.PORT: expected a string, got 8080`,
    ],
    [{ github: { command: "x", env: ["A=1"] } }, `mcpServers.github.env: expected an object, got an array`],
    [{ github: { command: "x", cwd: null } }, `mcpServers.github.cwd: expected a string, got null`],
    [
      { github: { command: "x", type: "http" } },
      `mcpServers.github.type: expected "stdio" with "command", got "http" (a remote server is given by "url")`,
    ],
    [{ github: { command: "x", tools: ["a"] } }, `mcpServers.github.tools: expected an object, got an array`],
    [
      { github: { command: "x", tools: { allow: [""] } } },
      `mcpServers.github.tools.allow[0]: expected a non-empty string, got ""`,
    ],
    [
      { github: { command: "x", descriptions: { a: 1 } } },
      `mcpServers.github.descriptions.a: expected a string, got 1`,
    ],
    [{ github: "npx" }, `mcpServers.github: expected an object, got "npx"`],
    [
      { "my server": { command: "x", timeout_s: true } },
      `mcpServers["my server"].timeout_s: expected a positive number, got true`,
    ],
  ];
  for (const [entries, message] of cases) {
    assert.equal(errorOf({ mcpServers: entries }), `${FILE}: ${message}`);
  }
});

Deno.test("config: a misspelt key is an error with the closest known key, at every level", () => {
  assert.match(
    errorOf({ mcpServers: { github: { command: "x", timeout: 5 } } }),
    /^gateway\.config\.json: mcpServers\.github\.timeout: unknown key \(did you mean "timeout_s"\?\); the keys here are command, /,
  );
  assert.match(
    errorOf({ mcpServers: { github: { command: "x", tools: { alow: ["*"] } } } }),
    /^gateway\.config\.json: mcpServers\.github\.tools\.alow: unknown key \(did you mean "allow"\?\); the keys here are allow, deny$/,
  );
  assert.match(
    errorOf({ mcpServer: {} }),
    /^gateway\.config\.json: mcpServer: unknown key \(did you mean "mcpServers"\?\)/,
  );
  assert.match(errorOf({ mcpServers: { a: { command: "x", Enabled: true } } }), /did you mean "enabled"/);
  assert.match(
    errorOf({ mcpServers: { a: { command: "x", disabled: true } } }),
    /mcpServers\.a\.disabled: unknown key; the keys/,
  );
});

Deno.test("config: the top level must be an object holding mcpServers", () => {
  assert.equal(errorOf([]), `${FILE}: expected an object with "mcpServers" at the top level`);
  assert.equal(errorOf({}), `${FILE}: mcpServers: missing: the config lists its servers under "mcpServers"`);
  assert.equal(errorOf({ mcpServers: [] }), `${FILE}: mcpServers: expected an object, got an array`);
  assert.deepEqual(parse({ $schema: "x", mcpServers: {} }).servers, []);
});

Deno.test("config: invalid JSON names the file; JSONC comments and trailing commas are accepted", () => {
  assert.match(
    errorOf(`{ "mcpServers": { "a": { "command": "x" } }`),
    /^gateway\.config\.json: invalid JSON: /,
  );
  assert.match(
    errorOf(`{ /* open`),
    /^gateway\.config\.json: invalid JSON: Unterminated \/\* comment at line 1$/,
  );
  const text = `{
    // servers
    "mcpServers": { "a": { "command": "x", "args": ["//not a comment", "/*"], }, },
  }`;
  assert.deepEqual(parseConfig(text, FILE, {}).servers[0].transport, {
    kind: "stdio",
    command: "x",
    args: ["//not a comment", "/*"],
    env: {},
  });
});

Deno.test("config: server names that are empty or contain __ (before or after normalising) are refused", () => {
  assert.equal(
    errorOf({ mcpServers: { "": { command: "x" } } }),
    `${FILE}: mcpServers[""]: a server name must not be empty`,
  );
  assert.equal(
    errorOf({ mcpServers: { a__b: { command: "x" } } }),
    `${FILE}: mcpServers.a__b: a server name must not contain "__": it separates server and tool in tool names`,
  );
  assert.equal(
    errorOf({ mcpServers: { "a.:b": { command: "x" } } }),
    `${FILE}: mcpServers["a.:b"]: a server name must not contain "__" (it becomes "a__b" in tool names): ` +
      "it separates server and tool in tool names",
  );
});

Deno.test("config: two server names that become one in tool names are refused, naming both entries", () => {
  // Accepted, "my_srv__echo" reached whichever came first and the other's tools got hash suffixes.
  assert.equal(
    errorOf({ mcpServers: { "my.srv": { command: "x" }, "my_srv": { command: "y" } } }),
    `${FILE}: mcpServers.my_srv: the server names "my.srv" and "my_srv" both become "my_srv" in tool names; ` +
      "rename one of them",
  );
  assert.equal(
    errorOf({
      mcpServers: { a: { command: "x" }, "b c": { command: "x" }, "b/c": { command: "y", enabled: false } },
    }),
    `${FILE}: mcpServers["b/c"]: the server names "b c" and "b/c" both become "b_c" in tool names; ` +
      "rename one of them",
    "a disabled entry counts too: enabling it must not change which server a name reaches",
  );
  assert.deepEqual(servers({ My_srv: { command: "x" }, my_srv: { command: "y" } }).map((s) => s.prefix), [
    "My_srv",
    "my_srv",
  ], "names differing only in case stay apart (tool names are case-sensitive)");
});

Deno.test("config: a builtin names one of this project's servers and takes no process keys", () => {
  assert.equal(
    errorOf({ mcpServers: { n: { builtin: "note" } } }),
    `${FILE}: mcpServers.n.builtin: unknown builtin server "note" (did you mean "notes"?); the builtins are ` +
      BUILTIN_SERVERS.join(", "),
  );
  assert.match(
    errorOf({ mcpServers: { g: { builtin: "gateway" } } }),
    /unknown builtin server "gateway"; the builtins/,
  );
  assert.equal(
    errorOf({ mcpServers: { f: { builtin: "fs", args: [] } } }),
    `${FILE}: mcpServers.f.args: not allowed with "builtin": a builtin runs in the gateway's process`,
  );
  assert.equal(
    errorOf({ mcpServers: { f: { enabled: true } } }),
    `${FILE}: mcpServers.f: expected "command" (a program to run), "url" (a remote server) or "builtin" (one of ${
      BUILTIN_SERVERS.join(", ")
    })`,
  );
  const custom = parseConfig(`{"mcpServers": {"x": {"builtin": "echo"}}}`, FILE, {}, { builtins: ["echo"] });
  assert.deepEqual(custom.servers[0].transport, { kind: "builtin", server: "echo" });
});

Deno.test("config: BUILTIN_SERVERS is every server under mcp/ but the gateway", () => {
  const found = listServers().map((server) => server.name).filter((name) => name !== "gateway");
  assert.deepEqual([...BUILTIN_SERVERS].sort(), found.sort());
});

Deno.test("config: ${env:VAR} expands in command, args, env values and cwd", () => {
  const env = { BIN: "/opt/bin", TOKEN: "s3cret", EMPTY: "", DIR: "work" };
  const [server] = servers({
    a: {
      command: "${env:BIN}/server",
      args: ["--token=${env:TOKEN}", "${env:EMPTY}", "${env:BIN}${env:DIR}", "${HOME}", "$env:TOKEN"],
      env: { API_KEY: "${env:TOKEN}" },
      cwd: "${env:DIR}",
      descriptions: { t: "${env:TOKEN}" },
    },
  }, env);
  assert.deepEqual(server.transport, {
    kind: "stdio",
    command: "/opt/bin/server",
    // Only the `${env:...}` form expands; other `$` text is left as written.
    args: ["--token=s3cret", "", "/opt/binwork", "${HOME}", "$env:TOKEN"],
    env: { API_KEY: "s3cret" },
    cwd: join(dirname(resolve(FILE)), "work"),
  });
  assert.deepEqual(server.descriptions, { t: "${env:TOKEN}" });
});

Deno.test("config: an unset variable is an error naming it and the key; in a disabled entry it expands to nothing", () => {
  const where: [Record<string, unknown>, string][] = [
    [{ command: "${env:NOPE}" }, "command"],
    [{ command: "x", args: ["a", "${env:NOPE}"] }, "args[1]"],
    [{ command: "x", env: { KEY: "${env:NOPE}" } }, "env.KEY"],
    [{ command: "x", cwd: "${env:NOPE}/dir" }, "cwd"],
  ];
  for (const [entry, key] of where) {
    assert.equal(
      errorOf({ mcpServers: { a: entry } }),
      `${FILE}: mcpServers.a.${key}: environment variable "NOPE" is not set; set it or remove "\${env:NOPE}"`,
    );
  }
  assert.equal(
    errorOf({ mcpServers: { a: { command: "${env:}" } } }),
    `${FILE}: mcpServers.a.command: "\${env:}" does not name an environment variable`,
  );
  assert.equal(
    errorOf({ mcpServers: { a: { command: "${env:NOPE}" } } }, { NOPE: "" }),
    `${FILE}: mcpServers.a.command: expands to an empty string`,
  );
  const [disabled] = servers({ a: { command: "x", env: { KEY: "${env:NOPE}" }, enabled: false } });
  assert.deepEqual(disabled.transport, { kind: "stdio", command: "x", args: [], env: { KEY: "" } });
  const [unset] = servers({ a: { command: "${env:NOPE}", enabled: false } });
  assert.equal(unset.transport.kind === "stdio" && unset.transport.command, "");
});

Deno.test("config: a relative cwd resolves against the config file's folder, not the process's", () => {
  const file = join("configs", "team", FILE);
  const config = parseConfig(`{"mcpServers": {"a": {"command": "x", "cwd": "../tools"}}}`, file, {});
  const transport = config.servers[0].transport;
  assert.equal(transport.kind === "stdio" && transport.cwd, resolve("configs", "tools"));
  const absolute = resolve(REPO_ROOT, "mcp");
  const kept = parseConfig(JSON.stringify({ mcpServers: { a: { command: "x", cwd: absolute } } }), file, {});
  const keptTransport = kept.servers[0].transport;
  assert.equal(keptTransport.kind === "stdio" && keptTransport.cwd, absolute);
});

Deno.test("config: a key named __proto__ stays data", () => {
  const text =
    `{"mcpServers": {"a": {"command": "x", "env": {"__proto__": "v"}, "descriptions": {"__proto__": "d"}}}}`;
  const [server] = parseConfig(text, FILE, {}).servers;
  assert.ok(server.transport.kind === "stdio" && Object.hasOwn(server.transport.env, "__proto__"));
  assert.equal(Object.getPrototypeOf(server.descriptions), Object.prototype);
  assert.ok(Object.hasOwn(server.descriptions, "__proto__"));
});

Deno.test("loadConfig: no flag and no MCP_GATEWAY_CONFIG → no servers", async () => {
  assert.deepEqual(await loadConfig(undefined, {}), { servers: [] });
  assert.deepEqual(await loadConfig(undefined, { MCP_GATEWAY_CONFIG: "" }), { servers: [] });
});

Deno.test("loadConfig: reads the flag's file before MCP_GATEWAY_CONFIG's; cwd resolves beside the file", async () => {
  await using ws = await tempWorkspace({
    "a/gateway.config.jsonc": `{ // a\n "mcpServers": { "a": { "command": "x", "cwd": "bin" } } }`,
    "b/gateway.config.json": `{ "mcpServers": { "b": { "builtin": "fs" } } }`,
  });
  const fromFlag = await loadConfig(ws.join("a/gateway.config.jsonc"), {
    MCP_GATEWAY_CONFIG: ws.join("b/gateway.config.json"),
  });
  assert.equal(fromFlag.file, ws.join("a", "gateway.config.jsonc"));
  assert.deepEqual(fromFlag.servers[0].transport, {
    kind: "stdio",
    command: "x",
    args: [],
    env: {},
    cwd: ws.join("a", "bin"),
  });
  const fromEnv = await loadConfig(undefined, { MCP_GATEWAY_CONFIG: ws.join("b/gateway.config.json") });
  assert.deepEqual(fromEnv.servers.map((server) => server.name), ["b"]);
});

Deno.test("loadConfig: a missing file is a ConfigError naming it and where its name came from", async () => {
  await using ws = await tempWorkspace();
  const missing = ws.join("nope.json");
  await assert.rejects(
    loadConfig(missing, {}),
    new ConfigError(`${missing}: cannot read the config: no such file`),
  );
  await assert.rejects(
    loadConfig(undefined, { MCP_GATEWAY_CONFIG: missing }),
    new ConfigError(`${missing}: cannot read the config (named by MCP_GATEWAY_CONFIG): no such file`),
  );
});

Deno.test("config: the example config parses, wiring the tail servers as builtins", async () => {
  const config = await loadConfig(join(REPO_ROOT, "mcp", "gateway", "gateway.config.example.jsonc"), {});
  const builtins = config.servers.flatMap((server) =>
    server.transport.kind === "builtin" ? [server.transport.server] : []
  );
  assert.deepEqual(builtins.sort(), ["fs", "hello", "notes", "sql"]);
});

Deno.test("config: a server listed twice under one name is an error, not the last one silently winning", () => {
  const text =
    `{\n  "mcpServers": {\n    "github": { "command": "a" },\n    "github": { "command": "b" }\n  }\n}`;
  assert.equal(errorOf(text), `${FILE}: invalid JSON: Duplicate key "github" at line 4`);
});

Deno.test("config: elicitation rules parse in order; a bad rule is refused naming the rule and key", () => {
  const [db] = servers({
    db: {
      command: "x",
      elicitation: [
        { match: "confirm.*", action: "accept", content: { sure: true, tags: ["a"] } },
        { match: ".*", action: "decline" },
      ],
    },
  });
  assert.deepEqual(
    db.elicitation?.map((rule) => [rule.match.test("confirm drop"), rule.action, rule.content]),
    [
      [true, "accept", { sure: true, tags: ["a"] }],
      [true, "decline", undefined],
    ],
  );
  assert.equal(db.elicitation?.[0].match.test("please confirm"), false, "match covers the whole message");
  const cases: [unknown, string][] = [
    [{ match: "(", action: "accept" }, `mcpServers.db.elicitation[0].match: not a regular expression`],
    [
      { match: "x", action: "allow" },
      `mcpServers.db.elicitation[0].action: expected one of accept, decline, cancel`,
    ],
    [
      { match: "x", action: "decline", content: {} },
      `mcpServers.db.elicitation[0].content: only an "accept"`,
    ],
    [
      { match: "x", action: "accept", content: { n: {} } },
      `mcpServers.db.elicitation[0].content.n: expected a`,
    ],
    [{ match: "x", action: "accept", reply: 1 }, `mcpServers.db.elicitation[0].reply: unknown key`],
  ];
  for (const [rule, message] of cases) {
    assert.ok(
      errorOf({ mcpServers: { db: { command: "x", elicitation: [rule] } } }).includes(message),
      message,
    );
  }
});
