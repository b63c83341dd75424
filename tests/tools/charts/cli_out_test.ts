/**
 * Each chart tool from the CLI as a subprocess under the `cli` permission set, against the mock upstream:
 * `--out FILE` writes the PNG (the rasteriser loads without file permissions), stdout keeps the JSON.
 */
import assert from "node:assert/strict";
import { startMockUpstream } from "../../../scripts/mock_upstream.ts";
import { pngInfo } from "../../../src/sources/pubchem/depiction.ts";
import { runDeno } from "../../e2e/helpers.ts";

const CALLS: [string, string[]][] = [
  ["generate_compound_chart", ["--cids", "2244", "--cids", "3672", "--properties", "MolecularWeight"]],
  ["generate_bioactivity_chart", ["--cid", "2244", "--top", "5"]],
  ["generate_publication_trend", ["--query", "heparin", "--fromYear", "2000", "--toYear", "2010", "--kind", "bar"]],
];

Deno.test("chart tools from the CLI: --out FILE writes a 600×400 PNG under -P=cli", async (t) => {
  const mock = await startMockUpstream({ rates: false });
  const dir = await Deno.makeTempDir();
  try {
    for (const [tool, flags] of CALLS) {
      await t.step(tool, async () => {
        const file = `${dir}/${tool}.png`;
        const run = await runDeno(
          ["run", "-P=cli", `--allow-write=${file}`, "main.ts", "call", tool, ...flags, "--out", file],
          { ...mock.env, OPENALEX_API_KEY: "test-key" },
        );
        assert.equal(run.code, 0, run.stderr + run.stdout);
        const png = await Deno.readFile(file);
        assert.deepEqual(await pngInfo(png), { width: 600, height: 400 });
        const printed = JSON.parse(run.stdout);
        assert.equal(printed.image.bytes, png.length);
        assert.ok(!run.stdout.includes("iVBORw0KGgo"), "no base64 PNG on stdout");
        assert.match(run.stderr, new RegExp(`saved image/png \\(${png.length} bytes\\) to ${file}`));
      });
    }
  } finally {
    await mock.close();
    await Deno.remove(dir, { recursive: true });
  }
});
