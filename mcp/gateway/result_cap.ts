/**
 * A downstream result cut to the gateway's budget, whatever its shape: the text of all its blocks together
 * (a server sending 60,000 small blocks gets no more than one sending one big block), the number of
 * blocks, the bytes of its images, audio and binary resources, its structuredContent and its `_meta`. What
 * was cut is said: a block cut in the middle says so inside it, dropped blocks in one note at the end.
 * @module
 */
import type { CallToolResult } from "../../lib/mcp/sdk.ts";
import { capText } from "../../lib/text/cap.ts";
import { formatCount, formatSize } from "../../lib/text/format.ts";

/** ~20,000 tokens at ~4 characters a token: the default budget of one relayed result's text. */
export const RESULT_BUDGET_CHARS = 80_000;
/** Content blocks relayed at most. */
export const MAX_BLOCKS = 500;
/** Base64 characters of images, audio and binary resources relayed at most (~3.7 MB decoded). */
export const MEDIA_BUDGET_CHARS = 5_000_000;
/** A `_meta` larger than this (as JSON) is dropped: it is for the client, never worth a context. */
export const META_BUDGET_CHARS = 8_192;
/** A block is cut no shorter than this: less would say nothing. */
const MIN_PIECE_CHARS = 200;

type Block = CallToolResult["content"][number];

/** What was dropped, for the note. */
interface Cuts {
  blocks: number;
  chars: number;
  media: string[];
}

/** Budgets left while the blocks are walked in order. */
interface Left {
  chars: number;
  media: number;
}

/**
 * `result` within budget: only its protocol fields (content, structuredContent, isError, _meta), the text
 * of all blocks within `budgetChars`, at most {@link MAX_BLOCKS} blocks and {@link MEDIA_BUDGET_CHARS} of
 * media, a structuredContent within `budgetChars` (else dropped: the text is its form).
 */
export function capResult(result: CallToolResult, budgetChars = RESULT_BUDGET_CHARS): CallToolResult {
  const left: Left = { chars: budgetChars, media: MEDIA_BUDGET_CHARS };
  const cuts: Cuts = { blocks: 0, chars: 0, media: [] };
  const blocks = result.content ?? [];
  const content: Block[] = [];
  for (const block of blocks) {
    const kept = content.length < MAX_BLOCKS ? fit(block, left) : undefined;
    if (kept) content.push(kept);
    else drop(block, cuts);
  }
  const notes: string[] = [];
  if (cuts.blocks) {
    const chars = cuts.chars ? ` (${formatCount(cuts.chars)} characters)` : "";
    const media = cuts.media.length ? `: ${cuts.media.join(", ")}` : "";
    notes.push(
      `cut ${formatCount(cuts.blocks)} of ${formatCount(blocks.length)} content blocks${chars}${media}; ` +
        `a result holds ${formatCount(budgetChars)} characters of text, ${MAX_BLOCKS} blocks and ` +
        `${formatSize(MEDIA_BUDGET_CHARS)} of images and audio`,
    );
  }
  const capped: CallToolResult = { content };
  const structured = result.structuredContent;
  if (structured !== undefined && JSON.stringify(structured).length > budgetChars) {
    notes.push(
      `structuredContent over ${formatCount(budgetChars)} characters dropped; the text above is its form`,
    );
  } else if (structured !== undefined) {
    capped.structuredContent = structured;
  }
  if (result.isError !== undefined) capped.isError = result.isError;
  if (result._meta !== undefined) {
    if (JSON.stringify(result._meta).length <= META_BUDGET_CHARS) capped._meta = result._meta;
    else notes.push(`_meta over ${formatCount(META_BUDGET_CHARS)} characters dropped`);
  }
  for (const note of notes) content.push({ type: "text", text: `[gateway: ${note}]` });
  return capped;
}

/** `block` within what is left (charged to it), cut in the middle if it must be; undefined when it does not fit. */
function fit(block: Block, left: Left): Block | undefined {
  const payload = payloadOf(block);
  const overhead = JSON.stringify(payload ? withPayload(block, payload.key, "") : block).length;
  if (overhead > left.chars) return undefined;
  if (!payload) {
    left.chars -= overhead;
    return block;
  }
  const { key, value, media } = payload;
  if (media) {
    if (value.length > left.media) return undefined;
    left.media -= value.length;
    left.chars -= overhead;
    return block;
  }
  const room = left.chars - overhead;
  if (value.length <= room) {
    left.chars -= overhead + value.length;
    return block;
  }
  if (room < MIN_PIECE_CHARS) return undefined;
  const piece = capText(value, room);
  left.chars -= overhead + piece.length;
  return withPayload(block, key, piece);
}

function drop(block: Block, cuts: Cuts): void {
  cuts.blocks++;
  const payload = payloadOf(block);
  if (payload?.media) {
    const kind = block.type === "resource"
      ? "a binary resource"
      : block.type === "image"
      ? "an image"
      : "audio";
    const mime = "mimeType" in block && typeof block.mimeType === "string" ? `${block.mimeType}, ` : "";
    // Listed once each, up to a few: a flood of images is counted, not named.
    if (cuts.media.length < 3) cuts.media.push(`${kind} (${mime}${formatSize(payload.value.length)})`);
    return;
  }
  cuts.chars += payload ? payload.value.length : JSON.stringify(block).length;
}

/** The one field of a block that may be large: text, base64 data, or an embedded resource's text or blob. */
function payloadOf(block: Block): { key: string; value: string; media: boolean } | undefined {
  if (block.type === "text") return { key: "text", value: block.text, media: false };
  if (block.type === "image" || block.type === "audio") {
    return { key: "data", value: block.data, media: true };
  }
  if (block.type === "resource") {
    const resource = block.resource as { text?: unknown; blob?: unknown };
    if (typeof resource.text === "string") {
      return { key: "resource.text", value: resource.text, media: false };
    }
    if (typeof resource.blob === "string") return { key: "resource.blob", value: resource.blob, media: true };
  }
  return undefined;
}

/** `block` with its payload field (`text`, `data`, `resource.text`...) set to `value`. */
function withPayload(block: Block, key: string, value: string): Block {
  if (!key.startsWith("resource.")) return { ...block, [key]: value } as Block;
  const resource = (block as { resource: Record<string, unknown> }).resource;
  return { ...block, resource: { ...resource, [key.slice("resource.".length)]: value } } as Block;
}
