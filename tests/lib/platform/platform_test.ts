import assert from "node:assert/strict";
import { posixPaths } from "../../../lib/platform/posix.ts";
import { windowsPaths } from "../../../lib/platform/windows.ts";

Deno.test("windows: containment ignores case and handles drive letters and UNC shares", () => {
  assert.ok(windowsPaths.isInside("C:\\Repo\\src\\a.ts", "c:\\repo"));
  assert.ok(windowsPaths.isInside("c:\\repo", "C:\\Repo"));
  assert.ok(!windowsPaths.isInside("D:\\repo\\a.ts", "C:\\repo"));
  assert.ok(!windowsPaths.isInside("C:\\repo-evil\\a.ts", "C:\\repo"));
  assert.ok(!windowsPaths.isInside("C:\\a.ts", "C:\\repo"));
  assert.ok(windowsPaths.isInside("\\\\server\\share\\x\\y", "\\\\server\\share\\x"));
  assert.ok(!windowsPaths.isInside("\\\\other\\share\\x", "\\\\server\\share"));
});

Deno.test("windows: file URLs, verbatim prefixes and path lists", () => {
  assert.equal(windowsPaths.fileUrlToPath("file:///C:/My%20Repo/src"), "C:\\My Repo\\src");
  assert.equal(windowsPaths.fileUrlToPath("file://server/share/dir"), "\\\\server\\share\\dir");
  // `localhost` is this machine; any other host is a network share, as the path \\host\share would be.
  assert.equal(windowsPaths.fileUrlToPath("file://localhost/C:/x"), "C:\\x");
  assert.throws(() => windowsPaths.fileUrlToPath("https://example.com/x"), /^Error: is not a file URL$/);
  assert.equal(windowsPaths.normalizeReal("\\\\?\\C:\\repo"), "C:\\repo");
  assert.equal(windowsPaths.normalizeReal("\\\\?\\UNC\\server\\share"), "\\\\server\\share");
  assert.equal(windowsPaths.listSeparator, ";");
  assert.equal(windowsPaths.path.resolve("C:\\repo", "..\\x"), "C:\\x");
});

Deno.test("posix: containment is exact and prefix-safe; file URLs decode", () => {
  assert.ok(posixPaths.isInside("/repo/src", "/repo"));
  assert.ok(posixPaths.isInside("/repo", "/repo"));
  assert.ok(!posixPaths.isInside("/repo-evil", "/repo"));
  assert.ok(!posixPaths.isInside("/Repo/a", "/repo"));
  assert.ok(posixPaths.isInside("/repo/..foo", "/repo"));
  assert.equal(posixPaths.fileUrlToPath("file:///home/a%20b"), "/home/a b");
  assert.throws(() => posixPaths.fileUrlToPath("https://example.com/x"), /^Error: is not a file URL$/);
  assert.throws(() => posixPaths.fileUrlToPath("file:///%zz"), /^Error: is not a valid URL$/);
  // A host would be dropped and `/etc` read here: refused; `localhost` is this machine.
  assert.throws(
    () => posixPaths.fileUrlToPath("file://evil.example/etc"),
    /^Error: names the host "evil\.example", not this machine$/,
  );
  assert.equal(posixPaths.fileUrlToPath("file://localhost/etc"), "/etc");
  assert.equal(posixPaths.fileUrlToPath("file://LOCALHOST/etc"), "/etc");
});

Deno.test("windows: device names and the device namespace are recognised; look-alikes are files", () => {
  for (
    const device of ["CON", "nul", "src\\COM1", "a/lpt3.txt", "AUX.", "\\\\.\\pipe\\x", "//./PhysicalDrive0"]
  ) {
    assert.ok(windowsPaths.isDevicePath(device), device);
  }
  for (
    const file of ["console.ts", "nul2", "src\\com10", "connection", "\\\\?\\C:\\repo\\a.ts", "C:\\con-x"]
  ) {
    assert.ok(!windowsPaths.isDevicePath(file), file);
  }
  assert.ok(!posixPaths.isDevicePath("CON"));
});

Deno.test("read-only: POSIX reads the write bits; Windows leaves it to the read-only attribute", () => {
  assert.ok(posixPaths.isReadOnly({ mode: 0o100444 }));
  assert.ok(posixPaths.isReadOnly({ mode: 0o555 }));
  assert.ok(!posixPaths.isReadOnly({ mode: 0o644 }));
  assert.ok(!posixPaths.isReadOnly({ mode: 0o464 }), "group-writable is not read-only");
  assert.ok(!posixPaths.isReadOnly({ mode: null }));
  assert.ok(!windowsPaths.isReadOnly({ mode: null }));
});

Deno.test("lock folder: POSIX names it by uid in /tmp whatever TMPDIR or USER say; Windows by user in its temp", () => {
  assert.equal(posixPaths.lockParent("/var/folders/x/T"), "/tmp");
  assert.equal(posixPaths.lockFolderName(1000, "alice"), "continue-mcp-locks-1000");
  assert.equal(posixPaths.lockFolderName(0, undefined), "continue-mcp-locks-0");
  assert.throws(() => posixPaths.lockFolderName(null, "alice"));
  assert.equal(
    windowsPaths.lockParent("C:\\Users\\a\\AppData\\Local\\Temp"),
    "C:\\Users\\a\\AppData\\Local\\Temp",
  );
  assert.equal(windowsPaths.lockFolderName(null, "Jane Doe"), "continue-mcp-locks-Jane_Doe");
  assert.equal(windowsPaths.lockFolderName(null, undefined), "continue-mcp-locks-user");
});

Deno.test("tooBroadRoot (POSIX): the file system root, the home folder and a folder holding it", () => {
  const homes = ["/home/me"];
  assert.equal(posixPaths.tooBroadRoot("/", homes), "is the whole file system");
  assert.equal(posixPaths.tooBroadRoot("/", []), "is the whole file system");
  assert.equal(posixPaths.tooBroadRoot("/home/me", homes), "is your home folder");
  assert.equal(posixPaths.tooBroadRoot("/home", homes), "holds your home folder");
  assert.equal(posixPaths.tooBroadRoot("/home/me/project", homes), null);
  assert.equal(posixPaths.tooBroadRoot("/home/me2", homes), null);
  assert.equal(posixPaths.tooBroadRoot("/srv/app", homes), null);
  assert.equal(posixPaths.tooBroadRoot("/tmp", []), null);
  // Every user's home folder, whoever runs the server (root's home is /root).
  assert.equal(posixPaths.tooBroadRoot("/home", ["/root"]), "holds every user's home folder");
  assert.equal(posixPaths.tooBroadRoot("/Users", []), "holds every user's home folder");
  assert.equal(posixPaths.tooBroadRoot("/users", []), "holds every user's home folder");
  assert.equal(posixPaths.tooBroadRoot("/home/alice/project", ["/root"]), null);
  assert.equal(posixPaths.tooBroadRoot("/srv/home", ["/root"]), null);
});

Deno.test("tooBroadRoot (Windows): drive and share roots, the profile folder and C:\\Users, any case", () => {
  const homes = ["C:\\Users\\me"];
  assert.equal(windowsPaths.tooBroadRoot("C:\\", homes), "is a whole drive");
  assert.equal(windowsPaths.tooBroadRoot("d:\\", homes), "is a whole drive");
  assert.equal(windowsPaths.tooBroadRoot("\\\\server\\share\\", homes), "is a whole network share");
  assert.equal(windowsPaths.tooBroadRoot("\\\\server\\share", homes), "is a whole network share");
  assert.equal(windowsPaths.tooBroadRoot("c:\\users\\ME", homes), "is your home folder");
  assert.equal(windowsPaths.tooBroadRoot("C:\\Users", homes), "holds your home folder");
  assert.equal(windowsPaths.tooBroadRoot("C:\\Users\\me\\repo", homes), null);
  assert.equal(windowsPaths.tooBroadRoot("D:\\work", homes), null);
  assert.equal(windowsPaths.tooBroadRoot("\\\\server\\share\\repo", homes), null);
  // The profiles folder, whoever runs the server, on any drive.
  assert.equal(windowsPaths.tooBroadRoot("C:\\Users", []), "holds every user's home folder");
  assert.equal(windowsPaths.tooBroadRoot("d:\\users\\", []), "holds every user's home folder");
  assert.equal(windowsPaths.tooBroadRoot("C:\\Users\\alice\\repo", []), null);
  assert.equal(windowsPaths.tooBroadRoot("C:\\Data\\Users", []), null);
});

Deno.test("isNetworkPath: UNC shares on Windows (judged before they are opened); never on POSIX", () => {
  for (const path of ["\\\\server\\share\\x", "//server/share", "\\\\?\\UNC\\server\\share"]) {
    assert.ok(windowsPaths.isNetworkPath(path), path);
  }
  for (const path of ["C:\\x", "\\\\?\\C:\\x", "\\\\.\\pipe\\x", "\\x", "x\\y"]) {
    assert.ok(!windowsPaths.isNetworkPath(path), path);
  }
  assert.ok(!posixPaths.isNetworkPath("//server/share"));
});
