import assert from "node:assert/strict";
import { EXPECTED_PASSED, runConformance } from "../../scripts/conformance.ts";

Deno.test("MCP conformance suite (server, --suite all) passes 44/44 over Streamable HTTP", async () => {
  const result = await runConformance();
  const failures = result.output.split("\n").filter((l) => l.startsWith("✗")).join("\n");
  assert.equal(result.failed, 0, `conformance failures:\n${failures}\n${result.output.slice(-3000)}`);
  assert.equal(result.passed, EXPECTED_PASSED, result.output.slice(-3000));
  assert.equal(result.code, 0);
});
