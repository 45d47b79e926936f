/** A temp workspace with a connected edit server, and shortcuts for the edit tests. */
import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { type FixtureEntry, tempWorkspace } from "../../_support/workspace.ts";
import { createServer } from "../../../mcp/edit/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";

/** A failed call: its text, toolkit code and spec kind. */
export interface Failure {
  text: string;
  code: string;
  kind: string;
}

/** The fixture a test works with. */
export interface EditFixture extends AsyncDisposable {
  path: string;
  join(...parts: string[]): string;
  call(tool: "edit_file" | "edit_write", args: Record<string, unknown>): Promise<CallToolResult>;
  /** edit_file that must succeed; returns its text. */
  edit(path: string, edits: unknown, extra?: Record<string, unknown>): Promise<string>;
  /** A call that must fail; returns what it said. */
  fail(tool: "edit_file" | "edit_write", args: Record<string, unknown>): Promise<Failure>;
  read(path: string): Promise<string>;
  bytes(path: string): Promise<Uint8Array>;
  /** Names of temp files left anywhere in the workspace. */
  leftovers(): Promise<string[]>;
}

/** Seeds `files` into a temp folder and connects an edit server whose workspace it is. */
export async function editFixture(
  files: Record<string, FixtureEntry> = {},
  options: { maxBytes?: number } = {},
): Promise<EditFixture> {
  const ws = await tempWorkspace(files);
  const connection = await connect(
    createServer({ workspace: new Workspace({ cwd: ws.path }), maxBytes: options.maxBytes }),
  );
  const call = (tool: string, args: Record<string, unknown>) => connection.call(tool, args);
  return {
    path: ws.path,
    join: ws.join,
    call,
    async edit(path, edits, extra = {}) {
      const result = await call("edit_file", { path, edits, ...extra });
      if (result.isError) throw new Error(`edit_file failed: ${textOf(result)}`);
      return textOf(result);
    },
    async fail(tool, args) {
      const result = await call(tool, args);
      assert.equal(result.isError, true, `expected an error, got: ${textOf(result)}`);
      const meta = result._meta as { code: string; kind?: string };
      return { text: textOf(result), code: meta.code, kind: meta.kind ?? "" };
    },
    read: (path) => Deno.readTextFile(ws.join(path)),
    bytes: (path) => Deno.readFile(ws.join(path)),
    async leftovers() {
      const found: string[] = [];
      const walk = async (dir: string) => {
        for await (const entry of Deno.readDir(dir)) {
          if (entry.isDirectory) await walk(`${dir}/${entry.name}`);
          else if (entry.name.endsWith(".tmp")) found.push(entry.name);
        }
      };
      await walk(ws.path);
      return found;
    },
    async [Symbol.asyncDispose]() {
      await connection[Symbol.asyncDispose]();
      await ws[Symbol.asyncDispose]();
    },
  };
}

/** UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Concatenates byte arrays and numbers (single bytes). */
export function bytesOf(...parts: (string | number[] | Uint8Array)[]): Uint8Array {
  const chunks = parts.map((part) => typeof part === "string" ? utf8(part) : Uint8Array.from(part));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
