import assert from "node:assert/strict";
import { ProtocolError } from "../../../src/sdk.ts";
import { pubchemHarness, reply } from "./helpers.ts";

function textOf(content: { uri: string } & ({ text: string } | { blob: string })): string {
  assert.ok("text" in content, "a text resource");
  return content.text;
}

Deno.test("pubchem://compound/{cid} resource", async (t) => {
  const h = await pubchemHarness(
    reply(/^\/pug\/compound\/cid\/2244\/property\//, "built__property_cids_2244_3672_2025_names.json"),
    reply("/pug/compound/cid/2244/synonyms/JSON", "webchem__synonyms_name_aspirin.json"),
    reply(/^\/pug\/compound\/cid\/3672\/property\//, "built__property_cids_2244_3672_2025_names.json"),
    reply("/pug/compound/cid/3672/synonyms/JSON", "metmashr__fault_name_no_hit_cids.json", 404),
    reply(/^\/pug\/compound\/cid\/999999999\//, "metmashr__fault_name_no_hit_cids.json", 404),
  );
  try {
    await t.step("is advertised as a template of the pubchem toolset", async () => {
      const { resourceTemplates } = await h.settle(h.client.listResourceTemplates());
      const template = resourceTemplates.find((r) => r.uriTemplate === "pubchem://compound/{cid}");
      assert.ok(template);
      assert.equal(template.mimeType, "application/json");
    });
    await t.step("reads a compact JSON summary of the compound", async () => {
      const { contents } = await h.settle(h.client.readResource({ uri: "pubchem://compound/2244" }));
      assert.equal(contents[0].mimeType, "application/json");
      const summary = JSON.parse(textOf(contents[0]));
      assert.equal(summary.cid, 2244);
      assert.equal(summary.title, "Aspirin");
      assert.equal(summary.molecularFormula, "C9H8O4");
      assert.equal(summary.molecularWeight, 180.16);
      assert.equal(summary.smiles, "CC(=O)OC1=CC=CC=C1C(=O)O");
      assert.equal(summary.inchiKey, "BSYNRYMUTXBXSQ-UHFFFAOYSA-N");
      assert.equal(summary.synonyms.length, 10);
      assert.equal(summary.synonyms[0], "aspirin");
      assert.ok(summary.synonymCount > 400);
      assert.equal(
        summary.imageUrl,
        "https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/cid/2244/PNG?image_size=large",
      );
    });
    await t.step("a compound without synonyms still reads, with an empty list", async () => {
      const { contents } = await h.settle(h.client.readResource({ uri: "pubchem://compound/3672" }));
      const summary = JSON.parse(textOf(contents[0]));
      assert.equal(summary.title, "Ibuprofen");
      assert.deepEqual(summary.synonyms, []);
    });
    await t.step("an unknown CID is a resource-not-found error (-32602 naming the URI)", async () => {
      await assert.rejects(
        () => h.settle(h.client.readResource({ uri: "pubchem://compound/999999999" })),
        (e) => e instanceof ProtocolError && e.code === -32602 && /999999999/.test(e.message),
      );
    });
    await t.step("a non-numeric CID is an invalid-params error, before any request", async () => {
      const before = h.requests.length;
      await assert.rejects(
        () => h.settle(h.client.readResource({ uri: "pubchem://compound/aspirin" })),
        (e) => e instanceof ProtocolError && e.code === -32602,
      );
      assert.equal(h.requests.length, before);
    });
  } finally {
    await h.close();
  }
});
