import assert from "node:assert/strict";
import { runDeno } from "./helpers.ts";

Deno.test("the package is JSR-ready: deno publish --dry-run passes (no slow types, only the published files)", async () => {
  const { code, stdout, stderr } = await runDeno(["publish", "--dry-run", "--allow-dirty"]);
  const output = stdout + stderr;
  assert.equal(code, 0, output.slice(-4000));
  assert.match(output, /Success Dry run complete/);
  assert.match(output, /mod\.ts/);
  for (const excluded of ["/tests/", "/fixtures/", "/scripts/", "/bench/"]) {
    assert.ok(!output.includes(excluded), `${excluded} is not published`);
  }
});
