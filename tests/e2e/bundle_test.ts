import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { ROOT, runDeno } from "./helpers.ts";

/** Names that exist only in the test-only conformance fixtures. */
const FIXTURE_MARKERS = ["test_simple_text", "json_schema_2020_12_tool", "conformanceExtension", "tests/conformance"];

Deno.test("deno task bundle builds a runnable dist/science-mcp.js without the conformance fixtures", async () => {
  const build = await runDeno(["task", "bundle"]);
  assert.equal(build.code, 0, build.stderr);
  const bundle = await Deno.readTextFile(`${ROOT}dist/science-mcp.js`);
  for (const marker of FIXTURE_MARKERS) assert.ok(!bundle.includes(marker), `the bundle contains ${marker}`);
  const run = await runDeno(["run", "-P=stdio", "dist/science-mcp.js", "list", "--json"]);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout).map((t: { name: string }) => t.name), ALL_TOOLS.map((t) => t.name));
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
