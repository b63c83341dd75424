import assert from "node:assert/strict";
import { ROOT, runDeno } from "./helpers.ts";

const denoJson = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
const SERVER_SETS = ["stdio", "stdio-open", "http", "cli", "deploy"];
const EXPECTED = { inline: false, text: "Suh, J.-G. (n.d.). Probe.", warnings: [] };

Deno.test("the citation worker starts under every server permission set (citeproc off the main thread)", async (t) => {
  assert.deepEqual(SERVER_SETS.filter((set) => !denoJson.permissions[set]), []);
  for (const set of SERVER_SETS) {
    await t.step(set, async () => {
      const run = await runDeno(["run", `-P=${set}`, "tests/e2e/render_worker_probe.ts"]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), EXPECTED);
    });
  }
});

Deno.test("without read access to the worker's modules, references render inline and one warning says why", async () => {
  const run = await runDeno(["run", "--allow-read=./files", "tests/e2e/render_worker_probe.ts"]);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.equal(result.inline, true);
  assert.equal(result.text, EXPECTED.text);
  assert.equal(result.warnings.length, 1);
  assert.match(result.warnings[0], /may not read .*src\/sources/);
});
