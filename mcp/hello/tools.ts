/** The hello server's tool table. */
import { z } from "zod";
import { defineTool, type ToolDefinition } from "../../lib/mcp/tool.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { VERSION } from "../../lib/version.ts";
import { os, toSlashes } from "../../lib/platform/mod.ts";

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The tools, closed over their dependencies. */
export function createTools(deps: { workspace: Workspace }): ToolDefinition[] {
  return [
    defineTool({
      name: "hello_ping",
      description: "Check the server answers. Returns pong.",
      input: {},
      annotations: READ_ONLY,
      run: () => "pong",
    }),
    defineTool({
      name: "hello_echo",
      description: "Return the given text unchanged.",
      input: { text: z.string().describe("Text to echo") },
      annotations: READ_ONLY,
      run: ({ text }) => text,
    }),
    defineTool({
      name: "hello_whoami",
      description: "Server name and version, runtime, OS, pid, and the workspace roots with their source.",
      input: {},
      output: {
        server: z.string(),
        version: z.string(),
        deno: z.string(),
        os: z.string(),
        arch: z.string(),
        pid: z.number(),
        roots: z.array(z.string()),
        roots_source: z.enum(["env", "roots", "cwd"]),
        allow_dirs: z.array(z.string()),
      },
      annotations: READ_ONLY,
      run: async () => {
        await deps.workspace.ready();
        return {
          server: "hello-mcp",
          version: VERSION,
          deno: Deno.version.deno,
          os,
          arch: Deno.build.arch,
          pid: Deno.pid,
          roots: deps.workspace.roots.map(toSlashes),
          roots_source: deps.workspace.source,
          allow_dirs: deps.workspace.allowDirs.map(toSlashes),
        };
      },
    }),
  ];
}
