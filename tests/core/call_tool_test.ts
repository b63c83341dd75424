/** callTool, the one-call helper for embedders: the same validation, rendering and envelope as tools/call. */
import assert from "node:assert/strict";
import { callTool } from "../../mod.ts";
import { mockUpstreamRoute } from "../helpers/tool_harness.ts";
import { scriptedFetch, testConfig, testRuntime } from "../helpers/runtime.ts";

const config = testConfig();

Deno.test("callTool runs a tool against the mock and returns its text and structuredContent", async () => {
  const runtime = testRuntime({ config, fetch: scriptedFetch(mockUpstreamRoute(config)) });
  try {
    const progress: unknown[] = [];
    const result = await callTool(runtime, "search_genes", { query: "BRCA1", organism: "human" }, {
      onProgress: (p) => progress.push(p),
    });
    assert.equal(result.isError, undefined, result.content[0].text);
    assert.match(result.content[0].text, /NCBIGene:672/);
    const items = (result.structuredContent as { items: { id: string }[] }).items;
    assert.equal(items[0].id, "NCBIGene:672");
  } finally {
    await runtime.close();
  }
});

Deno.test("callTool answers bad arguments and unknown tools with the error envelope, never a throw", async () => {
  const runtime = testRuntime({ config });
  try {
    const invalid = await callTool(runtime, "search_genes", { query: 42 });
    assert.equal(invalid.isError, true);
    assert.equal((invalid.structuredContent.error as { code: string }).code, "INVALID_INPUT");
    const unknown = await callTool(runtime, "no_such_tool");
    assert.equal(unknown.isError, true);
    const error = unknown.structuredContent.error as { code: string; recovery_hint: string };
    assert.equal(error.code, "INVALID_INPUT");
    assert.match(error.recovery_hint, /search_genes/);
  } finally {
    await runtime.close();
  }
});
