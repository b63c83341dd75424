/**
 * `deno compile` needs its runtime (denort), which it downloads on first use; our machines are offline.
 * With DENORT_BIN pointing at a local denort, this test builds the binary with `deno task compile` and
 * runs it; without it, the test is reported as ignored, with the reason in its name.
 */
import assert from "node:assert/strict";
import { ROOT, runDeno } from "./helpers.ts";

const denort = Deno.env.get("DENORT_BIN");

Deno.test({
  name: denort
    ? "deno task compile builds a binary with the cli permissions baked in"
    : "deno task compile (SKIPPED: set DENORT_BIN to a local denort to run it offline)",
  ignore: !denort,
  fn: async () => {
    const build = await runDeno(["task", "compile"], { DENORT_BIN: denort! });
    assert.equal(build.code, 0, build.stderr);
    const binary = `${ROOT}dist/science-mcp${Deno.build.os === "windows" ? ".exe" : ""}`;
    const version = await new Deno.Command(binary, { args: ["version"], stdout: "piped" }).output();
    assert.equal(version.code, 0);
    assert.match(new TextDecoder().decode(version.stdout), /^science-mcp \d+\.\d+\.\d+/);
    const list = await new Deno.Command(binary, { args: ["list", "--json"], stdout: "piped", cwd: ROOT }).output();
    assert.equal(list.code, 0);
    assert.ok(Array.isArray(JSON.parse(new TextDecoder().decode(list.stdout))));
  },
});

Deno.test("deno task compile refuses the full deno binary as DENORT_BIN, in one line naming the fix", async () => {
  const build = await runDeno(["task", "compile"], { DENORT_BIN: Deno.execPath() });
  assert.notEqual(build.code, 0);
  const lines = build.stderr.trim().split("\n").filter((l) => l.startsWith("error:"));
  assert.equal(lines.length, 1, build.stderr);
  assert.match(lines[0], /DENORT_BIN=.* is the full deno CLI, not denort: download denort-/);
});

Deno.test("deno task compile refuses a DENORT_BIN that does not exist", async () => {
  const build = await runDeno(["task", "compile"], { DENORT_BIN: "/nonexistent/denort" });
  assert.notEqual(build.code, 0);
  assert.match(build.stderr, /error: DENORT_BIN=\/nonexistent\/denort is not a file/);
});
