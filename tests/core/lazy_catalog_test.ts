/**
 * The lazy catalogue behind the server (src/lazy_catalog.ts): listings never import a toolset, a call
 * imports its own toolset once (concurrent first calls share the import), and a toolset that fails to
 * import is one tool error, retried by the next call, while the other toolsets keep working.
 */
import assert from "node:assert/strict";
import { TOOLSET_NAMES, type ToolsetName } from "../../src/config.ts";
import { memoryLogger } from "../../src/core/log.ts";
import { lazyCatalogue, TOOLSET_LOADERS, type ToolsetLoaders } from "../../src/lazy_catalog.ts";
import { MANIFEST_FILE } from "../../src/manifest.ts";
import { createRuntime } from "../../src/runtime.ts";
import { connectClient, scriptedFetch, testConfig } from "../helpers/runtime.ts";

/** The real loaders, counting imports per toolset; `fail` makes a toolset's next imports reject. */
function watchedLoaders() {
  const imports: Partial<Record<ToolsetName, number>> = {};
  const failing = new Set<ToolsetName>();
  const loaders = Object.fromEntries(TOOLSET_NAMES.map((name) => [name, () => {
    imports[name] = (imports[name] ?? 0) + 1;
    if (failing.has(name)) return Promise.reject(new Error(`cannot read src/tools/${name}/mod.ts`));
    return TOOLSET_LOADERS[name]();
  }])) as ToolsetLoaders;
  return { loaders, imports, failing };
}

async function serverWith(loaders: ToolsetLoaders) {
  const config = testConfig({ SCIENCE_MCP_TOOLSETS: TOOLSET_NAMES.join(",") });
  const runtime = createRuntime({
    config,
    fetch: scriptedFetch(),
    log: memoryLogger(),
    catalogue: lazyCatalogue(config.toolsets, loaders),
  });
  return { runtime, ...await connectClient(runtime) };
}

Deno.test("tools/list, resource templates, prompts and completions import no toolset", async () => {
  const { loaders, imports } = watchedLoaders();
  const { client, close } = await serverWith(loaders);
  try {
    const { tools } = await client.listTools();
    const listed = (JSON.parse(Deno.readTextFileSync(MANIFEST_FILE)).toolsets as { tools: unknown[] }[])
      .reduce((n, t) => n + t.tools.length, 0);
    assert.equal(tools.length, listed, "every tool of the generated manifest is listed");
    assert.ok(tools.every((t) => t.inputSchema.type === "object" && t.outputSchema?.type === "object"));
    assert.ok((await client.listResourceTemplates()).resourceTemplates.length > 0);
    assert.ok((await client.listPrompts()).prompts.length > 0);
    await client.complete({
      ref: { type: "ref/prompt", name: "gene_brief" },
      argument: { name: "organism", value: "h" },
    });
    assert.deepEqual(imports, {});
  } finally {
    await close();
  }
});

Deno.test("resources/list imports only the toolsets whose resources list instances", async () => {
  const { loaders, imports } = watchedLoaders();
  const { client, close } = await serverWith(loaders);
  try {
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === "pubmed-connect://info"));
    assert.deepEqual(imports, { pdf: 1 });
  } finally {
    await close();
  }
});

Deno.test("the first call of a toolset imports it, once, even when calls arrive together", async () => {
  const { loaders, imports } = watchedLoaders();
  const { client, close } = await serverWith(loaders);
  try {
    const calls = ["search_genes", "get_gene", "get_pubmed_links", "search_genes"].map((name) =>
      client.callTool({ name, arguments: { no_such_argument: 1 } })
    );
    const results = await Promise.all(calls);
    for (const result of results) {
      assert.equal(result.isError, true);
      assert.equal((result.structuredContent as { error: { code: string } }).error.code, "INVALID_INPUT");
    }
    assert.deepEqual(imports, { gene: 1 });
    await client.callTool({ name: "list_pdfs", arguments: {} });
    await client.callTool({ name: "get_gene", arguments: { no_such_argument: 1 } });
    assert.deepEqual(imports, { gene: 1, pdf: 1 });
  } finally {
    await close();
  }
});

Deno.test("a toolset that cannot be imported is an INTERNAL tool error; others work; the next call retries", async () => {
  const { loaders, imports, failing } = watchedLoaders();
  const { client, close } = await serverWith(loaders);
  failing.add("gene");
  try {
    const broken = await client.callTool({ name: "search_genes", arguments: { query: "BRCA1" } });
    assert.equal(broken.isError, true);
    const error = (broken.structuredContent as { error: { code: string; message: string } }).error;
    assert.equal(error.code, "INTERNAL");
    assert.match(error.message, /The gene toolset could not be loaded: cannot read src\/tools\/gene\/mod\.ts/);
    const pdfs = await client.callTool({ name: "list_pdfs", arguments: {} });
    assert.equal(pdfs.isError, undefined, JSON.stringify(pdfs.structuredContent));
    failing.delete("gene");
    const retried = await client.callTool({ name: "search_genes", arguments: { no_such_argument: 1 } });
    assert.equal((retried.structuredContent as { error: { code: string } }).error.code, "INVALID_INPUT");
    assert.deepEqual(imports, { gene: 2, pdf: 1 });
  } finally {
    await close();
  }
});

Deno.test("an unknown tool name imports nothing and is still a protocol error", async () => {
  const { loaders, imports } = watchedLoaders();
  const { client, close } = await serverWith(loaders);
  try {
    await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), /Unknown tool 'no_such_tool'/);
    assert.deepEqual(imports, {});
  } finally {
    await close();
  }
});
