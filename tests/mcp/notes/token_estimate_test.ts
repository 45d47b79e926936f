import assert from "node:assert/strict";
import { encode } from "gpt-tokenizer";
import { estimateTokens } from "../../../mcp/notes/token_estimate.ts";
import { formatIndex } from "../../../mcp/notes/listing.ts";
import { interpret } from "../../../mcp/notes/note_file.ts";

const LINES = [
  "config-debugging — When config misbehaves, set LOG=debug and rerun… (security)",
  "build-commands (windows, 2026-01-01)",
  "# 2026-01-30",
  "k8s-helm-values — Kubernetes Helm values.yaml overrides per environment (infra, k8s)",
  "api-keys — Rotate API_KEY/SECRET_TOKEN in .env.local via `vault kv put` (security)",
  "note-51af17 — 构建命令和测试 — 在提交之前运行测试。(ci)",
  "zametki-o-sborke — Заметки о сборке — Запускайте тесты перед каждым коммитом. (сборка)",
  "ellinika — Σημειώσεις για το build — Τρέξτε τα τεστ πριν από κάθε commit. (build)",
  "deutsch — Überprüfungen für Änderungen — Führen Sie die Tests vor jedem Commit aus. (tests)",
];

Deno.test("the token estimate stays within 20 % of o200k on index lines of several scripts", () => {
  for (const line of LINES) {
    const real = encode(line).length;
    const estimate = estimateTokens(line);
    assert.ok(Math.abs(estimate - real) <= real * 0.2, `${line}: estimated ${estimate}, real ${real}`);
  }
});

Deno.test("a page of 100 notes titled in Chinese, Russian or English fits a thousand tokens", () => {
  const titles = ["构建命令和测试说明", "Заметки о сборке проекта", "Release checklist for mobile"];
  const summaries = [
    "在提交之前运行所有测试并检查格式。",
    "Запускайте тесты перед каждым коммитом.",
    "Bump the version.",
  ];
  const notes = Array.from({ length: 100 }, (_, i) => {
    const text = `---\ntitle: ${titles[i % 3]} ${i}\nsummary: ${summaries[i % 3]}\ntags: [t${i % 7}]\n` +
      `updated: 2026-01-${String(1 + (i % 28)).padStart(2, "0")}T00:00:00.000Z\n---\nBody.\n`;
    return interpret({ slug: `note-${i}`, path: `/n/note-${i}.md`, text, size: text.length, mtime: null });
  });
  for (const query of [undefined, "note"]) {
    const page = formatIndex({ notes, skipped: [] }, { query, folder: ".continue-notes/" });
    const tokens = encode(page).length;
    assert.ok(tokens <= 1_000, `the page (query ${query}) costs ${tokens} tokens`);
    assert.ok(page.split("\n").length > 30, page);
  }
});
