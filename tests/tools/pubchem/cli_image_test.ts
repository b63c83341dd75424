/** `call get_compound_image_url … --out FILE` writes the attached PNG and keeps base64 off stdout. */
import assert from "node:assert/strict";
import { type CliIo, EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE, runCli } from "../../../src/cli/main.ts";
import { ManualClock } from "../../../src/core/clock.ts";
import { fixtureBytes, testRuntime } from "../../helpers/runtime.ts";
import { MOCK_BASE, mockRoutesFetch } from "./helpers.ts";

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const clock = new ManualClock(1_700_000_000_000);
  let out = "";
  let err = "";
  const io: CliIo = {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    stderrIsTerminal: false,
    runtime: () => testRuntime({ fetch: mockRoutesFetch(), clock, env: { PUBCHEM_BASE_URL: MOCK_BASE } }),
  };
  const run = runCli(argv, io);
  let settled = false;
  run.then(() => (settled = true), () => (settled = true));
  for (let step = 0; !settled && step < 3600; step++) await clock.advance(1000);
  return { code: await run, out, err };
}

Deno.test("cli --out saves an attached image", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    await t.step("writes the PNG, prints structuredContent and says where the file went", async () => {
      const file = `${dir}/aspirin.png`;
      const run = await cli(["call", "get_compound_image_url", "--cid", "2244", "--out", file]);
      assert.equal(run.code, EXIT_OK, run.err);
      assert.deepEqual(await Deno.readFile(file), fixtureBytes("pubchem/built__png_cid_2244_large.png"));
      const printed = JSON.parse(run.out);
      assert.equal(printed.cid, 2244);
      assert.equal(printed.bytes, fixtureBytes("pubchem/built__png_cid_2244_large.png").length);
      assert.match(run.err, new RegExp(`saved image/png \\(${printed.bytes} bytes\\) to ${file}`));
    });
    await t.step("--out=FILE after a JSON argument object works too", async () => {
      const file = `${dir}/small.png`;
      const run = await cli(["call", "get_compound_image_url", '{"cid":2244,"size":"small"}', `--out=${file}`]);
      assert.equal(run.code, EXIT_OK, run.err);
      assert.deepEqual(await Deno.readFile(file), fixtureBytes("pubchem/built__png_cid_2244_small.png"));
    });
    await t.step("without --out: no base64 on stdout, a note on stderr", async () => {
      const run = await cli(["call", "get_compound_image_url", "--cid", "2244"]);
      assert.equal(run.code, EXIT_OK);
      assert.ok(run.out.length < 400, "stdout holds the small JSON only");
      assert.ok(!run.out.includes("iVBORw0KGgo"), "no base64 PNG on stdout");
      assert.match(run.err, /image\/png image attached \(\d+ bytes\); pass --out FILE/);
    });
    await t.step("--out for a result without an image writes nothing and exits 1", async () => {
      const file = `${dir}/none.png`;
      const run = await cli(["call", "get_compound_image_url", "--cid", "2244", "--no-inline", "--out", file]);
      assert.equal(run.code, EXIT_USAGE);
      assert.match(run.err, /carries no image/);
      await assert.rejects(() => Deno.stat(file), Deno.errors.NotFound);
    });
    await t.step("a tool error still exits 2 and writes nothing", async () => {
      const file = `${dir}/missing.png`;
      const run = await cli(["call", "get_compound_image_url", "--cid", "3672", "--out", file]);
      assert.equal(run.code, EXIT_TOOL_ERROR);
      assert.equal(JSON.parse(run.out).error.code, "ENTITY_NOT_FOUND");
      await assert.rejects(() => Deno.stat(file), Deno.errors.NotFound);
    });
    await t.step("--out without a file name is a usage error", async () => {
      const run = await cli(["call", "get_compound_image_url", "--cid", "2244", "--out"]);
      assert.equal(run.code, EXIT_USAGE);
      assert.match(run.err, /--out needs a file name/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
