import assert from "node:assert/strict";
import { cleanTerminalText, unfinishedEscapeTail } from "../../../lib/text/terminal.ts";

Deno.test("cleanTerminalText strips colours, cursor moves, OSC titles and hyperlinks", () => {
  assert.equal(cleanTerminalText("\x1b[1;31mred\x1b[0m \x1b[?25lx\x1b[?25h"), "red x");
  assert.equal(cleanTerminalText("\x1b]0;title\x07a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"), "alink");
  assert.equal(cleanTerminalText("\x1b(Bplain\x1b="), "plain");
});

Deno.test("cleanTerminalText keeps each line's final carriage-return frame and turns CRLF into LF", () => {
  assert.equal(cleanTerminalText("10%\r50%\r100%\ndone\r\n"), "100%\ndone\n");
  assert.equal(cleanTerminalText("\r\x1b[2Kstep 1\r\x1b[2Kstep 2\r"), "step 2");
  assert.equal(cleanTerminalText("no control"), "no control");
});

Deno.test("unfinishedEscapeTail finds an escape sequence cut off at the end, and only that", () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  assert.equal(unfinishedEscapeTail(bytes("ab\x1b[0m")), 0);
  assert.equal(unfinishedEscapeTail(bytes("ab\x1b[0")), 3);
  assert.equal(unfinishedEscapeTail(bytes("ab\x1b")), 1);
  assert.equal(unfinishedEscapeTail(bytes("a\x1b]8;;http://x\x07b\x1b]0;tit")), 7);
  assert.equal(unfinishedEscapeTail(bytes("a\x1b]0;title\x1b")), 10);
  assert.equal(unfinishedEscapeTail(bytes("a\x1b]0;title\x1b\\")), 0);
  assert.equal(unfinishedEscapeTail(bytes("a\x1b(")), 2);
  assert.equal(unfinishedEscapeTail(bytes("a\x1b(B")), 0);
  assert.equal(unfinishedEscapeTail(bytes("plain text")), 0);
});
