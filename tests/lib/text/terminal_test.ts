import assert from "node:assert/strict";
import { cleanTerminalText } from "../../../lib/text/terminal.ts";

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
