import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { near } from "../helpers/doc_sizes.ts";
import { ROOT, runDeno } from "./helpers.ts";

/** Names that exist only in the test-only conformance fixtures. */
const FIXTURE_MARKERS = [
  "test_simple_text",
  "json_schema_2020_12_tool",
  "test_input_required_result_elicitation",
  "conformanceExtension",
  "tests/conformance",
];
/**
 * The README's command (the bundle loads the PDF, parse and citation workers from beside itself, so it reads dist/
 * instead of src/sources), with `call`/`list` in place of its `serve`.
 */
const README = await Deno.readTextFile(`${ROOT}README.md`);
const RUN_BUNDLE = /`deno (run [^`]* dist\/science-mcp\.js) serve`/.exec(README)![1].split(" ");

Deno.test("deno task bundle builds a runnable dist/science-mcp.js without the conformance fixtures", async (t) => {
  const build = await runDeno(["task", "bundle"]);
  assert.equal(build.code, 0, build.stderr);
  await t.step("no fixture name is in the bundle", async () => {
    for (const file of ["science-mcp.js", "pdf_worker.ts", "parse_worker.ts", "render_worker.ts"]) {
      const text = await Deno.readTextFile(`${ROOT}dist/${file}`);
      for (const marker of FIXTURE_MARKERS) assert.ok(!text.includes(marker), `dist/${file} contains ${marker}`);
    }
  });
  await t.step("no test-only package is in the bundle (the SDK client, fast-check, ajv)", async () => {
    const text = await Deno.readTextFile(`${ROOT}dist/science-mcp.js`);
    for (const pkg of ["@modelcontextprotocol+client@", "fast-check@", "ajv@"]) {
      assert.ok(!text.includes(`node_modules/.deno/${pkg}`), `dist/science-mcp.js bundles ${pkg}`);
    }
  });
  await t.step("the README's bundle row gives each file's size", async () => {
    const row = README.split("\n").find((l) => l.startsWith("| `deno task bundle`"))!;
    for (const [, file, size] of row.matchAll(/`dist\/([^`]+)` \(([\d.]+ [KM]B)\)/g)) {
      near(size, (await Deno.stat(`${ROOT}dist/${file}`)).size, `dist/${file}`);
    }
    const task = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks.bundle as string;
    assert.equal([...row.matchAll(/`dist\//g)].length, [...task.matchAll(/--output /g)].length);
  });
  await t.step("the bundled parse worker starts with read access to dist/ alone", async () => {
    const run = await runDeno([
      "run",
      "-P=stdio",
      "--allow-read=./files,./.cache,./dist",
      "tests/e2e/parse_worker_probe.ts",
      "dist/parse_worker.ts",
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { inline: false, text: "parsed off the main thread", warnings: [] });
  });
  await t.step("the bundled citation worker renders with read access to dist/ alone", async () => {
    const run = await runDeno([
      "run",
      "-P=stdio",
      "--allow-read=./files,./.cache,./dist",
      "tests/e2e/render_worker_probe.ts",
      "dist/render_worker.ts",
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { inline: false, text: "Suh, J.-G. (n.d.). Probe.", warnings: [] });
  });
  await t.step("the bundle lists the catalogue", async () => {
    const run = await runDeno([...RUN_BUNDLE, "list", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout).map((x: { name: string }) => x.name), ALL_TOOLS.map((x) => x.name));
  });
  for (const def of ALL_TOOLS.filter((d) => !d.annotations.openWorldHint)) {
    await t.step(`the bundle runs the local tool ${def.name}`, async () => {
      const run = await runDeno([...RUN_BUNDLE, "call", def.name, JSON.stringify(def.examples[0])]);
      assert.equal(run.code, 0, run.stderr + run.stdout);
      assert.equal(def.output.safeParse(JSON.parse(run.stdout)).success, true);
    });
  }
});

Deno.test("no production module refers to the conformance fixtures", async () => {
  const files = ["mod.ts", "serve.ts"];
  for await (const entry of Deno.readDir(`${ROOT}src`)) if (entry.isDirectory) files.push(`src/${entry.name}`);
  const grep = await new Deno.Command("grep", {
    args: ["-rlE", "tests/conformance|conformance/fixtures", ...files],
    cwd: ROOT,
    stdout: "piped",
  }).output();
  assert.equal(new TextDecoder().decode(grep.stdout), "");
});
