/**
 * Scale-out for real: three server processes (`deno run -P=http main.ts serve`) on one local KV file,
 * 30 concurrent tool calls spread over them, against the mock upstream enforcing NCBI's 3 req/s at
 * arrival. Judged by outcomes only — no 429 at the mock, no lost call — never by durations; and the same
 * three processes without the shared budget do draw 429s (the referee is not blind).
 */
import assert from "node:assert/strict";
import { kvFile, startInstances } from "../../bench/instances.ts";
import { startMockUpstream } from "../../scripts/mock_upstream.ts";

async function run(calls: number, kv: string | undefined) {
  const mock = await startMockUpstream();
  const env: Record<string, string> = { ...mock.env, ...(kv ? { SCIENCE_MCP_KV: kv } : {}) };
  const instances = await startInstances({ count: 3, mode: "run", env, mockHost: new URL(mock.url).host });
  try {
    const results = await Promise.all(
      Array.from({ length: calls }, (_, i) =>
        instances.clients[i % 3].callTool({
          name: "searchPubMedArticles",
          arguments: { queryTerm: `shared budget ${i}` },
        })),
    );
    return {
      succeeded: results.filter((r) => !r.isError).length,
      violations: Object.values(mock.violations).reduce((a, b) => a + (b ?? 0), 0),
      ncbiRequests: mock.requests.filter((r) => r.upstream === "ncbi-eutils").length,
      stderr: instances.stderr(),
    };
  } finally {
    await instances.stop();
    await mock.close();
  }
}

Deno.test({
  name: "three server processes on one KV file: 30 concurrent calls at 3 req/s, zero 429s, none lost",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await t.step("with SCIENCE_MCP_KV", async () => {
      const kv = kvFile();
      try {
        const outcome = await run(30, kv.path);
        assert.equal(outcome.succeeded, 30, outcome.stderr);
        assert.equal(outcome.violations, 0, outcome.stderr);
        assert.ok(outcome.ncbiRequests >= 30, `every call reached NCBI (${outcome.ncbiRequests})`);
      } finally {
        await kv.remove();
      }
    });
    await t.step("without it, the same three processes exceed the limit", async () => {
      const outcome = await run(15, undefined);
      assert.ok(outcome.violations > 0, JSON.stringify({ ...outcome, stderr: undefined }));
    });
  },
});
