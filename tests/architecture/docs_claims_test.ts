/**
 * What README.md and docs/ say about files holds for the code: every repository path they name exists,
 * docs/architecture.md's layer table names every module at the top of src/, the bundle row names the files
 * `deno task bundle` writes, and the sizes given for embedded assets are those of the files (within 5 %).
 * The bundle's own sizes are checked where it is built (tests/e2e/bundle_test.ts).
 */
import assert from "node:assert/strict";
import resvgWasm from "@resvg/resvg-wasm/index_bg.wasm" with { type: "bytes" };
import notoWoff from "@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff" with { type: "bytes" };
import { near } from "../helpers/doc_sizes.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const DOCS = ["README.md", "docs/architecture.md", "docs/extending.md", "docs/benchmarks.md"];
const read = (file: string) => Deno.readTextFileSync(`${ROOT}${file}`);

/** `src/x.ts`, `tests/y/`, … in backticks; placeholders (`<name>`, `*`, `{…}`) left out. */
function namedPaths(text: string): string[] {
  const paths = [...text.matchAll(/`((?:src|tests|scripts|bench|files|docs|fixtures)\/[^`\s]*)`/g)].map((m) => m[1]);
  return [...new Set(paths.filter((p) => !/[<>*{}…]/.test(p)).map((p) => p.replace(/[:.,)]+$/, "")))];
}

Deno.test("every repository path README.md and docs/ name exists", () => {
  for (const file of DOCS) {
    const missing = namedPaths(read(file)).filter((path) => {
      try {
        Deno.statSync(`${ROOT}${path}`);
        return false;
      } catch {
        return true;
      }
    });
    assert.deepEqual(missing, [], `${file} names files that do not exist`);
  }
});

Deno.test("docs/architecture.md's layer table names every module and folder at the top of src/", () => {
  const table = read("docs/architecture.md").split("\n").filter((l) => /^\| \d+ \|/.test(l)).join("\n");
  // `src/sources/<name>/` names the folder src/sources/.
  const named = [...table.matchAll(/`(src\/[^`\s<]*)/g)].map((m) => m[1]);
  const entries = [...Deno.readDirSync(`${ROOT}src`)].map((e) => e.isDirectory ? `src/${e.name}/` : `src/${e.name}`);
  const unnamed = entries.filter((entry) => !named.some((path) => path === entry || entry.startsWith(path)));
  assert.deepEqual(unnamed.sort(), [], "add them to the layer table (and to LAYERS in imports_test.ts)");
});

Deno.test("README's bundle row names exactly the files deno task bundle writes", () => {
  const task = JSON.parse(read("deno.json")).tasks.bundle as string;
  const outputs = [...task.matchAll(/--output (\S+)/g)].map((m) => m[1]).sort();
  const row = read("README.md").split("\n").find((l) => l.startsWith("| `deno task bundle`"))!;
  assert.deepEqual([...row.matchAll(/`(dist\/[^`]+)`/g)].map((m) => m[1]).sort(), outputs);
  assert.match(read("README.md"), /`deno run -q -P=stdio --allow-read=[^`]*\.\/dist dist\/science-mcp\.js serve`/);
});

Deno.test("the chart assets' sizes in README.md are the files' sizes", () => {
  const text = read("README.md");
  near(/MPL-2\.0, ([\d.]+ MB) of wasm/.exec(text)![1], resvgWasm.byteLength, "resvg wasm");
  near(/([\d.]+ KB) as WOFF/.exec(text)![1], notoWoff.byteLength, "Noto Sans WOFF");
  const assets = `${ROOT}src/render/chart/assets`;
  const total = [...Deno.readDirSync(assets)].reduce((sum, e) => sum + Deno.statSync(`${assets}/${e.name}`).size, 0);
  near(/`src\/render\/chart\/assets\/` \(([\d.]+ MB) in all/.exec(text)![1], total, "src/render/chart/assets/");
});
