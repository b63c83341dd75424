import assert from "node:assert/strict";
import { z } from "zod";
import { pubchemResources, pubchemTools } from "../../../src/tools/pubchem/mod.ts";
import { pubchemHarness } from "./helpers.ts";

const NAMES = [
  "search_compound_by_identifier",
  "fetch_compound_properties",
  "get_compound_image_url",
  "search_compounds_by_structure",
  "search_compounds_by_similarity",
  "search_compounds_by_formula",
  "fetch_substance_details",
  "fetch_assay_summary",
  "search_assays_by_target",
  "fetch_compound_xrefs",
  "fetch_compound_safety",
  "fetch_compound_bioactivity",
  "generate_compound_chart",
  "generate_bioactivity_chart",
];

Deno.test("the pubchem toolset lists its fourteen tools, each documented for a model", async (t) => {
  await t.step("names, toolset and examples", () => {
    assert.deepEqual(pubchemTools.map((tool) => tool.name), NAMES);
    for (const tool of pubchemTools) {
      assert.equal(tool.toolset, "pubchem");
      assert.match(tool.description, /Example: \{/, `${tool.name} description has an example`);
      for (const example of tool.examples) {
        assert.ok(tool.input.safeParse(example).success, `${tool.name} example valid`);
      }
    }
  });
  await t.step("every input field is described", () => {
    for (const tool of pubchemTools) {
      for (const [field, schema] of Object.entries(tool.input.shape)) {
        assert.ok((schema as z.ZodType).description, `${tool.name}.${field} has a description`);
      }
    }
  });
  await t.step("tools/list advertises them with input and output schemas", async () => {
    const h = await pubchemHarness();
    try {
      const { tools } = await h.settle(h.client.listTools());
      for (const name of NAMES) {
        const tool = tools.find((x) => x.name === name);
        assert.ok(tool, name);
        assert.equal(tool.inputSchema.type, "object");
        assert.ok(tool.outputSchema);
        assert.equal(tool.annotations?.readOnlyHint, true);
      }
    } finally {
      await h.close();
    }
  });
  await t.step("three resource templates: the summary, the structure image and the charts' SVG", () => {
    assert.deepEqual(pubchemResources.map((r) => [r.uriTemplate, r.toolset, r.mimeType]), [
      ["pubchem://compound/{cid}", "pubchem", "application/json"],
      ["pubchem://compound/{cid}/image", "pubchem", "image/png"],
      ["pubchem://chart/{id}", "pubchem", "image/svg+xml"],
    ]);
  });
});
