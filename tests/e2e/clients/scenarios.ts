/**
 * One scenario per server for the third-party clients: the workspace it starts in, and per client one
 * tools/call typed as a user would (`key=value` on the command line) with the output or effect to check.
 * Several values are typed so the client sends a number or boolean where the tool wants text.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";

/** One tools/call as typed on a client's command line, and what must come of it. */
export interface TypedCall {
  tool: string;
  /** `key=value` words (Inspector: each after `--tool-arg`; mcporter: as they are). */
  args: string[];
  /** mcporter only: a JSON object for nested arguments (`--args`). */
  json?: Record<string, unknown>;
  /** The result text must match. */
  expect: RegExp;
  /** A checkable effect in the workspace, when the tool has one. */
  effect?: (workspace: string) => Promise<void>;
}

/** A server, its workspace, and one call for each client. */
export interface ClientScenario {
  server: string;
  files: Record<string, string>;
  /** Env for the server, given the workspace path (the gateway's config). */
  serverEnv?: (workspace: string) => Record<string, string>;
  inspector: TypedCall;
  mcporter: TypedCall;
}

const FILES = {
  "notes.txt": "alpha\nbeta\n",
  "src/a.ts": "export const needle = 1;\n",
  "gateway.json": JSON.stringify({ mcpServers: { hello: { builtin: "hello" }, fs: { builtin: "fs" } } }),
};

const fileHolds = (path: string, expected: string) => async (workspace: string) => {
  assert.equal(await Deno.readTextFile(join(workspace, path)), expected);
};

/** Every server under `mcp/`, in name order (the test checks none is missing). */
export const SCENARIOS: readonly ClientScenario[] = [
  {
    server: "edit",
    files: FILES,
    // `content=123` arrives as the number 123 from Inspector 2.x.
    inspector: {
      tool: "edit_write",
      args: ["path=out/new.txt", "content=123"],
      expect: /new\.txt/,
      effect: fileHolds("out/new.txt", "123"),
    },
    mcporter: {
      tool: "edit_file",
      args: [],
      json: { path: "notes.txt", edits: [{ old_text: "alpha", new_text: "ALPHA" }] },
      expect: /notes\.txt/,
      effect: fileHolds("notes.txt", "ALPHA\nbeta\n"),
    },
  },
  {
    server: "fs",
    files: FILES,
    inspector: { tool: "fs_read", args: ["path=notes.txt", "limit=1"], expect: /1\talpha\n/ },
    mcporter: { tool: "fs_stat", args: ["path=src/a.ts"], expect: /"type": "file"/ },
  },
  {
    server: "gateway",
    files: FILES,
    serverEnv: (workspace) => ({ MCP_GATEWAY_CONFIG: join(workspace, "gateway.json") }),
    inspector: { tool: "gateway_search", args: ["query=echo text"], expect: /hello__hello_echo/ },
    mcporter: {
      tool: "gateway_call",
      args: [],
      json: { name: "hello__hello_echo", arguments: { text: "through the gateway" } },
      expect: /through the gateway/,
    },
  },
  {
    server: "hello",
    files: {},
    inspector: { tool: "hello_echo", args: ["text=123"], expect: /^123$/ },
    mcporter: { tool: "hello_echo", args: ["text=true"], expect: /^true$/ },
  },
  {
    server: "notes",
    files: {},
    inspector: {
      tool: "notes_write",
      args: ["slug=from-inspector", "body=42"],
      expect: /from-inspector/,
      effect: async (workspace) => {
        assert.match(await Deno.readTextFile(join(workspace, ".continue-notes/from-inspector.md")), /\n42\n/);
      },
    },
    mcporter: {
      tool: "notes_write",
      args: ["slug=from-mcporter", "body=false"],
      expect: /from-mcporter/,
      effect: async (workspace) => {
        assert.match(
          await Deno.readTextFile(join(workspace, ".continue-notes/from-mcporter.md")),
          /\nfalse\n/,
        );
      },
    },
  },
  {
    server: "search",
    files: FILES,
    inspector: { tool: "search_grep", args: ["pattern=needle"], expect: /src\/a\.ts/ },
    mcporter: { tool: "search_glob", args: ["pattern=**/*.ts"], expect: /src\/a\.ts/ },
  },
  {
    server: "shell",
    files: {},
    inspector: { tool: "shell_run", args: ["command=echo from-inspector"], expect: /from-inspector/ },
    // mcporter sends `command=true` as the boolean true: the shell must still run `true`.
    mcporter: { tool: "shell_run", args: ["command=true"], expect: /exit 0/ },
  },
  {
    server: "sql",
    files: FILES,
    inspector: { tool: "sql_format", args: ["sql=SELECT A FROM T"], expect: /select a from t/ },
    mcporter: { tool: "sql_format", args: ["sql=SELECT B FROM T"], expect: /select b from t/ },
  },
];
