import assert from "node:assert/strict";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { fromFileUrl, isAbsolutePath, resolvePath, withinFolder } from "../../src/core/paths.ts";

const RELATIVE = [
  "files",
  "./files",
  "logs/",
  "./a/b/../c",
  "../up",
  "../../../../x",
  "a//b/./c",
  ".",
  "..",
  "x/..",
  ".",
];

Deno.test("paths: isAbsolutePath agrees with node:path (posix and win32)", () => {
  const samples = ["/", "/x", "x", "./x", "../x", "", "\\x", "C:\\x", "c:/x", "C:x", "C:", "\\\\server\\share", "~/x"];
  for (const p of samples) {
    assert.equal(isAbsolutePath(p, false), path.posix.isAbsolute(p), `posix ${p}`);
    assert.equal(isAbsolutePath(p, true), path.win32.isAbsolute(p), `win32 ${p}`);
  }
});

Deno.test("paths: a relative setting resolves against the project as node:path's resolve does", () => {
  for (const root of ["/", "/srv/science-mcp", "/srv/science-mcp/", "/a b/proj"]) {
    for (const p of RELATIVE) assert.equal(resolvePath(root, p, false), path.posix.resolve(root, p), `${root} + ${p}`);
  }
  const windowsRoots = [
    "C:\\",
    "C:\\Users\\me\\science-mcp",
    "c:\\proj\\",
    "C:/mixed/slashes",
    "\\\\server\\share\\proj",
  ];
  const windowsRelative = [...RELATIVE, "a\\b\\..\\c", ".\\files"];
  for (const root of windowsRoots) {
    for (const p of windowsRelative) {
      assert.equal(resolvePath(root, p, true), path.win32.resolve(root, p), `${root} + ${p}`);
    }
  }
  // Drive-relative: on the root's drive it continues the root. On another drive node consults that drive's
  // working folder (this host's, here); the server takes the drive's top.
  for (const p of ["C:files", "c:..\\x"]) {
    assert.equal(resolvePath("C:\\proj", p, true), path.win32.resolve("C:\\proj", p));
  }
  assert.equal(resolvePath("C:\\proj", "D:files", true), "D:\\files");
});

Deno.test("paths: a file URL's path, as node:url reads it", () => {
  for (const p of ["/srv/science-mcp/src/", "/a b/ü/%/x.ts", "/"]) {
    assert.equal(fromFileUrl(pathToFileURL(p), false), p.endsWith("/") ? p : path.posix.normalize(p));
  }
  assert.equal(fromFileUrl(new URL("file:///C:/Users/me/a%20b/main.ts"), true), "C:\\Users\\me\\a b\\main.ts");
  assert.equal(fromFileUrl(new URL("file://server/share/proj/main.ts"), true), "\\\\server\\share\\proj\\main.ts");
});

Deno.test("paths: an entry inside the working folder is named relative to it, with / separators", () => {
  assert.equal(withinFolder("/srv/proj", "/srv/proj/main.ts", false), "main.ts");
  assert.equal(withinFolder("/srv/proj/", "/srv/proj/src/main.ts", false), "src/main.ts");
  assert.equal(withinFolder("/srv/pro", "/srv/proj/main.ts", false), "/srv/proj/main.ts");
  assert.equal(withinFolder("/elsewhere", "/srv/proj/main.ts", false), "/srv/proj/main.ts");
  assert.equal(withinFolder("C:\\Proj", "c:\\proj\\src\\main.ts", true), "src/main.ts");
  assert.equal(withinFolder("C:\\Other", "C:\\proj\\main.ts", true), "C:\\proj\\main.ts");
});
