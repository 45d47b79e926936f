/**
 * fs_read: numbered pages of text files (several per call), images as image content, binaries refused.
 * Files up to `fullScanBytes` are scanned whole on every read (line count, endings, SHA-256 of all bytes);
 * bigger ones are read only as far as the page needs, helped by a sparse line index.
 * @module
 */
import { Buffer } from "node:buffer";
import { ToolError, toToolError } from "../../lib/mcp/errors.ts";
import type { ContentBlock } from "../../lib/mcp/render.ts";
import { formatCount, formatSize } from "../../lib/text/format.ts";
import type { FsDeps } from "./deps.ts";
import { checkpointBefore } from "./line_index.ts";
import { resolveExisting } from "./resolve.ts";
import { crOnlyFile, scanLines, type ScanResult } from "./scan.ts";
import { sniff, SNIFF_BYTES } from "./sniff.ts";

/** Characters kept back from a file's budget for its header and footer. */
const HEADER_ALLOWANCE = 300;

/** What to read. */
export interface ReadRequest {
  paths: string[];
  /** First line, 1-based; negative counts from the end (-100: the last 100 lines). */
  offset?: number;
  limit?: number;
}

/** Reads the files of `request` under one shared output budget; images come back as image blocks. */
export async function readFiles(
  deps: FsDeps,
  request: ReadRequest,
  signal?: AbortSignal,
): Promise<string | ContentBlock[]> {
  if (request.paths.length === 1) {
    const blocks = await readOne(deps, request.paths[0], request, deps.limits.readChars, signal);
    return blocks.length === 1 && blocks[0].type === "text" ? blocks[0].text : blocks;
  }
  const blocks: ContentBlock[] = [];
  const errors: ToolError[] = [];
  let remaining = deps.limits.readChars;
  for (const [i, path] of request.paths.entries()) {
    const share = Math.floor(remaining / (request.paths.length - i));
    let part: ContentBlock[];
    try {
      part = await readOne(deps, path, request, share, signal);
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      errors.push(error);
      part = [{ type: "text", text: `${path}\nError [${error.code}]: ${error.message}` }];
    }
    for (const block of part) {
      if (block.type === "text") remaining -= block.text.length;
      const last = blocks.at(-1);
      // Adjacent text blocks merge, so clients that show only the first block still see everything.
      if (block.type === "text" && last?.type === "text") last.text += `\n\n${block.text}`;
      else blocks.push(block);
    }
  }
  if (errors.length === request.paths.length) {
    throw new ToolError(errors[0].code, errors.map((e) => e.message).join("; "));
  }
  return blocks;
}

async function readOne(
  deps: FsDeps,
  path: string,
  request: ReadRequest,
  maxChars: number,
  signal?: AbortSignal,
): Promise<ContentBlock[]> {
  const { real, info } = await resolveExisting(deps, path, { verb: "read", signal });
  const shown = deps.workspace.display(real);
  if (info.isDirectory) {
    throw new ToolError("invalid_argument", `Cannot read "${path}": it is a folder; list it with fs_list`);
  }
  if (!info.isFile) throw new ToolError("invalid_argument", `Cannot read "${path}": not a regular file`);
  using file = await Deno.open(real, { read: true }).catch((error) => {
    throw toToolError(error, `Cannot read "${path}"`);
  });
  const head = await readHead(file);
  const kind = sniff(head);
  if (kind.kind === "image") {
    if (info.size > deps.limits.imageBytes) {
      throw new ToolError(
        "too_large",
        `Cannot read "${path}": ${kind.label} of ${formatSize(info.size)} is over the ${
          formatSize(deps.limits.imageBytes)
        } image limit`,
      );
    }
    const bytes = await Deno.readFile(real, { signal });
    // node:crypto is imported at first use: loading it cost a cold start tens of milliseconds.
    const { createHash } = await import("node:crypto");
    const sha = createHash("sha256").update(bytes).digest("hex");
    return [
      { type: "text", text: `${shown} · ${kind.label} · ${formatSize(info.size)} · sha256 ${sha}` },
      { type: "image", data: Buffer.from(bytes).toString("base64"), mimeType: kind.mimeType },
    ];
  }
  if (kind.kind === "binary") {
    throw new ToolError(
      "invalid_argument",
      `Cannot read "${path}": binary file (${kind.label}, ${
        formatSize(info.size)
      }); fs_stat shows its metadata`,
    );
  }
  if (info.size === 0) return [{ type: "text", text: `${shown} · 0 bytes · (empty file)` }];
  const limits = deps.limits;
  const full = info.size <= limits.fullScanBytes;
  const index = full
    ? undefined
    : deps.indexes.get(real, { size: info.size, mtimeMs: info.mtime?.getTime() ?? 0, ino: info.ino });
  const crOnly = await crOnlyFile(file, head);
  const limit = request.limit ?? limits.readLines;
  let offset = request.offset ?? 1;
  if (offset < 0) {
    let total = index?.totalLines;
    if (total === undefined) {
      const count = await scanLines(file, {
        offset: Number.MAX_SAFE_INTEGER,
        limit: 0,
        maxChars: 0,
        maxLineChars: limits.lineChars,
        toEnd: true,
        crOnly,
        start: index ? checkpointBefore(index, Number.MAX_SAFE_INTEGER) : undefined,
        index,
        signal,
      });
      total = count.totalLines ?? 0;
    }
    offset = Math.max(1, total + offset + 1);
  }
  const scan = await scanLines(file, {
    offset,
    limit,
    keepLast: (request.offset ?? 1) < 0,
    // Header and footer come out of the same budget.
    maxChars: maxChars - HEADER_ALLOWANCE,
    maxLineChars: limits.lineChars,
    toEnd: full,
    hash: full,
    crOnly,
    start: index ? checkpointBefore(index, offset) : undefined,
    index,
    signal,
  });
  const total = scan.totalLines ?? index?.totalLines;
  if (scan.lines.length === 0 && total !== undefined) {
    throw new ToolError(
      "invalid_argument",
      `Cannot read "${path}" from line ${formatCount(offset)}: it has ${formatCount(total)} lines; ` +
        `use an offset from 1 to ${formatCount(total)}`,
    );
  }
  const header = formatHeader(shown, info.size, scan, total, {
    bom: kind.bom,
    hashLimit: full ? undefined : limits.fullScanBytes,
  });
  const body = scan.lines.map((line) => `${String(line.number).padStart(6)}\t${line.text}`).join("\n");
  const footer = formatFooter(scan, total, { lineChars: limits.lineChars, offset });
  return [{ type: "text", text: `${header}\n${body}\n${footer}` }];
}

function formatHeader(
  shown: string,
  size: number,
  scan: ScanResult,
  total: number | undefined,
  options: { bom: boolean; hashLimit?: number },
): string {
  const parts = [shown, formatSize(size)];
  if (total !== undefined) parts.push(`${formatCount(total)} ${total === 1 ? "line" : "lines"}`);
  parts.push(endingsLabel(scan));
  if (options.bom) parts.push("UTF-8 BOM");
  if (scan.finalNewline === false) parts.push("no final newline");
  if (scan.invalidUtf8) parts.push("invalid UTF-8 shown as �");
  parts.push(
    scan.sha256 ? `sha256 ${scan.sha256}` : `sha256 n/a (file over ${formatSize(options.hashLimit ?? 0)})`,
  );
  return parts.join(" · ");
}

function endingsLabel(scan: ScanResult): string {
  const { lf, crlf, cr } = scan.endings;
  if (lf && crlf) return `mixed endings (${formatCount(crlf)} CRLF, ${formatCount(lf)} LF)`;
  if (crlf) return "CRLF";
  if (lf) return "LF";
  return cr ? "CR" : "no line breaks";
}

function formatFooter(
  scan: ScanResult,
  total: number | undefined,
  options: { lineChars: number; offset: number },
): string {
  const first = scan.lines[0].number;
  const last = scan.lines.at(-1)!.number;
  const of = total === undefined ? "? (not counted)" : formatCount(total);
  const notes: string[] = [];
  if (scan.stop === "budget" || scan.trimmedFront) notes.push("output cap reached");
  if (scan.trimmedFront) notes.push(`earlier: offset=${options.offset}, limit=${first - options.offset}`);
  if (scan.cutLines) notes.push(`${scan.cutLines} long lines cut at ${formatCount(options.lineChars)} chars`);
  if (scan.more) notes.push(`next: offset=${last + 1}`);
  if (scan.more && total === undefined) notes.push(`last lines: offset=-${last - first + 1}`);
  return `[lines ${first}-${last} of ${of}${notes.length ? `; ${notes.join("; ")}` : ""}]`;
}

async function readHead(file: Deno.FsFile): Promise<Uint8Array> {
  const head = new Uint8Array(SNIFF_BYTES);
  let filled = 0;
  while (filled < head.length) {
    const read = await file.read(head.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  return head.subarray(0, filled);
}
