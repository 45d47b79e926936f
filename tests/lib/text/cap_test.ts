import assert from "node:assert/strict";
import { capText } from "../../../lib/text/cap.ts";
import { formatCount, formatSize } from "../../../lib/text/format.ts";

Deno.test("capText leaves text that fits untouched", () => {
  assert.equal(capText("short\ntext\n", 100), "short\ntext\n");
});

Deno.test("capText keeps head and tail on line boundaries and states exactly what it cut", () => {
  const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`);
  const text = lines.join("\n") + "\n";
  const capped = capText(text, 400);
  assert.ok(capped.length <= 400, `length ${capped.length}`);
  const [head, tail] = capped.split(/\[\.\.\. [\d,]+ bytes \/ [\d,]+ lines cut \.\.\.\]\n/);
  assert.ok(head.startsWith("line 0\n") && head.endsWith("\n"));
  assert.ok(tail.endsWith("line 999\n"));
  const [, bytes, cutLines] = capped.match(/\[\.\.\. ([\d,]+) bytes \/ ([\d,]+) lines cut/)!;
  const keptLines = head.split("\n").length - 1 + tail.split("\n").length - 1;
  assert.equal(Number(cutLines.replaceAll(",", "")), 1000 - keptLines);
  assert.equal(Number(bytes.replaceAll(",", "")), text.length - head.length - tail.length);
});

Deno.test("capText counts bytes, not UTF-16 units, for non-ASCII text", () => {
  const text = "é".repeat(10_000);
  const capped = capText(text, 200);
  const bytes = Number(capped.match(/([\d,]+) bytes/)![1].replaceAll(",", ""));
  const kept = capped.replace(/\n?\[\.\.\..*\.\.\.\]\n?/, "").length;
  assert.equal(bytes, (10_000 - kept) * 2);
});

Deno.test("formatCount and formatSize", () => {
  assert.equal(formatCount(48311), "48,311");
  assert.equal(formatCount(999), "999");
  assert.equal(formatSize(512), "512B");
  assert.equal(formatSize(2150), "2.1K");
  assert.equal(formatSize(5_300_000), "5.1M");
});

Deno.test("capText says inside its marker how to get what was cut", () => {
  const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
  assert.match(
    capText(text, 300, { note: "since=7 shows them" }),
    /\n\[\.\.\. [\d,]+ bytes \/ \d+ lines cut: since=7 shows them \.\.\.\]\n/,
  );
});
