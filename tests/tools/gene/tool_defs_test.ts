import assert from "node:assert/strict";
import { geneTools } from "../../../src/tools/gene/mod.ts";
import { geneHarness } from "./gene_mock.ts";

Deno.test("gene ToolDefs: one per tool, described for a model, every input field described", () => {
  assert.deepEqual(geneTools.map((t) => t.name), ["search_genes", "get_gene", "get_pubmed_links"]);
  for (const tool of geneTools) {
    assert.equal(tool.toolset, "gene");
    assert.match(tool.description, /Example: \{/, tool.name);
    assert.ok(tool.description.length < 1000, `${tool.name} description stays small`);
    assert.deepEqual(tool.annotations, { readOnlyHint: true, idempotentHint: true, openWorldHint: true });
    for (const [field, schema] of Object.entries(tool.input.shape)) {
      assert.ok((schema as { description?: string }).description, `${tool.name}.${field} has a description`);
    }
  }
});

Deno.test("every gene ToolDef example is answered by the mock routes with a valid result", async () => {
  const h = await geneHarness();
  try {
    for (const tool of geneTools) {
      assert.ok(tool.examples.length >= 1);
      for (const example of tool.examples) {
        const result = await h.call(tool.name, example as Record<string, unknown>);
        assert.equal(result.isError, undefined, `${tool.name} ${JSON.stringify(example)}: ${result.content[0].text}`);
        assert.equal(tool.output.safeParse(result.structuredContent).success, true);
        assert.ok(result.content[0].text.length > 0);
      }
    }
  } finally {
    await h.close();
  }
});
