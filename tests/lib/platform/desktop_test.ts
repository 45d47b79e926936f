import assert from "node:assert/strict";
import { openUrlArgv, userConfigHome } from "../../../lib/platform/desktop.ts";

Deno.test("user config folder: XDG on Linux, Application Support on macOS, APPDATA on Windows", () => {
  assert.equal(userConfigHome("linux", { HOME: "/home/a" }), "/home/a/.config");
  assert.equal(userConfigHome("linux", { HOME: "/home/a", XDG_CONFIG_HOME: "/x/cfg" }), "/x/cfg");
  // A relative XDG_CONFIG_HOME is invalid by the spec and ignored.
  assert.equal(userConfigHome("linux", { HOME: "/home/a", XDG_CONFIG_HOME: "cfg" }), "/home/a/.config");
  assert.equal(userConfigHome("linux", {}), undefined);
  assert.equal(userConfigHome("darwin", { HOME: "/Users/a" }), "/Users/a/Library/Application Support");
  assert.equal(
    userConfigHome("windows", { APPDATA: "C:\\Users\\a\\AppData\\Roaming" }),
    "C:\\Users\\a\\AppData\\Roaming",
  );
  assert.equal(userConfigHome("windows", { USERPROFILE: "C:\\Users\\a" }), "C:\\Users\\a\\AppData\\Roaming");
  assert.equal(userConfigHome("windows", {}), undefined);
});

Deno.test("opening a URL: one argv per OS, the URL one argument whatever it holds", () => {
  const url = "https://auth.example/authorize?a=1&b=2";
  assert.deepEqual(openUrlArgv("linux", url), ["xdg-open", url]);
  assert.deepEqual(openUrlArgv("darwin", url), ["open", url]);
  assert.deepEqual(openUrlArgv("windows", url), ["rundll32", "url.dll,FileProtocolHandler", url]);
});

Deno.test("opening a URL: anything but http(s) is refused on every OS (a file: link runs a planted file)", () => {
  for (const os of ["linux", "darwin", "windows"] as const) {
    assert.equal(openUrlArgv(os, "http://127.0.0.1:9/a").at(-1), "http://127.0.0.1:9/a");
    for (const url of ["file:///tmp/x.desktop", "smb://host/share", "ms-settings:privacy", "not a url"]) {
      assert.throws(
        () => openUrlArgv(os, url),
        /Refused to open .* in a browser: scheme "[^"]+" is not http: or https:/,
      );
    }
  }
});
