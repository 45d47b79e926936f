/**
 * The one way to declare a tool ({@link defineTool}) and to check and list a table of them
 * ({@link toolTable}, {@link listedTools}); `register_tools.ts` serves the table on an SDK server. Imports
 * no SDK value: a server's stdio entry lists its tools before the SDK is loaded (`quick_start.ts`).
 * @module
 */
import { z } from "zod";
import type { CallToolResult, Tool, ToolAnnotations } from "./sdk.ts";
import { ToolError } from "./errors.ts";
import { coerceArguments, formatIssues } from "./arguments.ts";
import { describeUnknownKeys, findUnknownKeys, portableSchema } from "./schema.ts";
import { renderError, renderStructured, renderText, type TextOutput } from "./render.ts";

/** What a tool's `run` receives besides its arguments. */
export interface ToolContext {
  /** Aborted when the client cancels the call or the server shuts down. */
  signal: AbortSignal;
  /** Sends a progress notification when the client asked for them; a no-op otherwise. */
  progress(message: string, progress?: number, total?: number): void;
  /** Sends another server's progress on unchanged; set only when the client asked for progress. */
  relayProgress?: (update: ProgressUpdate) => void;
  /** The JSON-RPC id of the client's tools/call: what a request sent on the call's behalf is related to. */
  requestId?: string | number;
}

/** One progress notification's payload, without the token. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

type Shape = z.ZodRawShape;
type Infer<S extends Shape> = z.infer<z.ZodObject<S>>;

interface ToolBase<I extends Shape> {
  /** `<server>_<verb>`, `[a-z0-9_]`, at most 40 characters. */
  name: string;
  description: string;
  input: I;
  annotations: ToolAnnotations;
}

/** A text-centric tool: returns compact text (or content blocks such as images), no outputSchema. */
export interface TextToolSpec<I extends Shape> extends ToolBase<I> {
  output?: undefined;
  run(input: Infer<I>, context: ToolContext): Promise<TextOutput> | TextOutput;
}

/** A JSON-shaped tool: returns `structuredContent` plus the same JSON as text. */
export interface JsonToolSpec<I extends Shape, O extends Shape> extends ToolBase<I> {
  output: O;
  run(input: Infer<I>, context: ToolContext): Promise<Infer<O>> | Infer<O>;
}

/**
 * A tool that relays another server's result as it came (content, structuredContent, isError, _meta): the
 * gateway's calls. No outputSchema: what comes back is the downstream tool's own shape.
 */
export interface PassthroughToolSpec<I extends Shape> extends ToolBase<I> {
  output: "passthrough";
  run(input: Infer<I>, context: ToolContext): Promise<CallToolResult>;
}

/** A declared tool, ready for {@link toolTable}. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly annotations: ToolAnnotations;
  /** The input schema exactly as tools/list shows it: flat, without `$schema`. */
  readonly inputSchema: Tool["inputSchema"];
  readonly outputSchema?: Tool["outputSchema"];
  call(args: unknown, context: ToolContext): Promise<CallToolResult>;
}

const TOOL_NAME = /^[a-z0-9_]{1,40}$/;

/** Declares a tool: its name, terse description, zod input (and output) shape, annotations and `run`. */
export function defineTool<I extends Shape, O extends Shape>(spec: JsonToolSpec<I, O>): ToolDefinition;
export function defineTool<I extends Shape>(spec: TextToolSpec<I>): ToolDefinition;
export function defineTool<I extends Shape>(spec: PassthroughToolSpec<I>): ToolDefinition;
export function defineTool<I extends Shape, O extends Shape>(
  spec: TextToolSpec<I> | JsonToolSpec<I, O> | PassthroughToolSpec<I>,
): ToolDefinition {
  if (!TOOL_NAME.test(spec.name)) throw new Error(`Tool name "${spec.name}" must match ${TOOL_NAME}`);
  const inputType = z.object(spec.input);
  const inputSchema = toFlatJsonSchema(inputType, "input");
  const outputSchema = typeof spec.output === "object"
    ? toFlatJsonSchema(z.object(spec.output), "output")
    : undefined;
  return {
    name: spec.name,
    description: spec.description,
    annotations: spec.annotations,
    inputSchema,
    outputSchema,
    async call(args, context) {
      const coerced = coerceArguments(args ?? {}, inputSchema);
      const unknown = findUnknownKeys(coerced, inputSchema);
      if (unknown.length) {
        return renderError(
          new ToolError("invalid_argument", `Cannot call ${spec.name}: ${describeUnknownKeys(unknown)}`),
        );
      }
      const parsed = inputType.safeParse(coerced, { reportInput: true });
      if (!parsed.success) {
        return renderError(
          new ToolError("invalid_argument", `Cannot call ${spec.name}: ${formatIssues(parsed.error.issues)}`),
        );
      }
      try {
        const result = await spec.run(parsed.data as Infer<I>, context);
        if (spec.output === "passthrough") return result as CallToolResult;
        return spec.output
          ? renderStructured(result as Record<string, unknown>)
          : renderText(result as TextOutput);
      } catch (error) {
        // A call the client cancelled: a cancel is no failure (nothing to log), and its answer is never sent.
        if (context.signal?.aborted && !(error instanceof ToolError)) {
          return renderError(
            new ToolError("unavailable", `Cannot finish ${spec.name}: the client cancelled it`),
          );
        }
        return renderError(error, spec.name);
      }
    },
  };
}

/** The tools by name; throws when one lacks the `<serverName>_` prefix or is declared twice. */
export function toolTable(serverName: string, tools: readonly ToolDefinition[]): Map<string, ToolDefinition> {
  const byName = new Map<string, ToolDefinition>();
  // Tool names allow no "-": the repo-map server's tools are repo_map_<verb>.
  const prefix = `${serverName.replaceAll("-", "_")}_`;
  for (const tool of tools) {
    if (!tool.name.startsWith(prefix)) throw new Error(`Tool "${tool.name}" must start with "${prefix}"`);
    if (byName.has(tool.name)) throw new Error(`Tool "${tool.name}" is declared twice`);
    byName.set(tool.name, tool);
  }
  return byName;
}

/** The tools as tools/list shows them. */
export function listedTools(tools: readonly ToolDefinition[]): Tool[] {
  return tools.map((tool): Tool => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    annotations: tool.annotations,
  }));
}

function toFlatJsonSchema(type: z.ZodObject, io: "input" | "output"): Tool["inputSchema"] {
  const schema = z.toJSONSchema(type, { io, unrepresentable: "any" }) as Record<string, unknown>;
  // The spec's default dialect applies without `$schema`; dropping it saves ~15 tokens a tool.
  delete schema.$schema;
  if ("$defs" in schema || JSON.stringify(schema).includes('"$ref"')) {
    throw new Error("Tool schemas must stay flat: Continue rebuilds them from properties and required only");
  }
  return portableSchema(schema, io === "input") as Tool["inputSchema"];
}
