/** The tree of the ignore-files-above-the-workspace tests, shared by search and fs. */

/** `parent/` ignores everything; `parent/ws` (no .git anywhere) is the workspace, with its own rules. */
export const TREE = {
  ".gitignore": "*\n",
  ".ignore": "*.ts\n",
  "ws/a.ts": "needle\n",
  "ws/.gitignore": "*.log\n/top.txt\nsrc/gen/\n",
  "ws/top.txt": "needle\n",
  "ws/b.log": "needle\n",
  "ws/src/c.ts": "needle\n",
  "ws/src/d.log": "needle\n",
  "ws/src/top.txt": "needle\n",
  "ws/src/gen/e.ts": "needle\n",
  "ws/src/.ignore": "skip.ts\n",
  "ws/src/deep/skip.ts": "needle\n",
  "ws/src/deep/f.ts": "needle\n",
};
