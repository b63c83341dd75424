import assert from "node:assert/strict";
import { callOnce, errorOf, geneHarness, paramsOf } from "./gene_mock.ts";

Deno.test("get_gene over MCP", async (t) => {
  const h = await geneHarness();
  try {
    await t.step("NCBIGene:7157 gives the TP53 entity with its cross-references", async () => {
      const result = await h.call("get_gene", { entrez_id: "NCBIGene:7157" });
      assert.equal(result.isError, undefined);
      const g = result.structuredContent as Record<string, unknown> & { cross_references: Record<string, unknown> };
      assert.equal(g.id, "NCBIGene:7157");
      assert.equal(g.symbol, "TP53");
      assert.equal(g.name, "tumor protein p53");
      assert.equal(g.description, "cellular tumor antigen p53");
      assert.equal(g.map_location, "17p13.1");
      assert.equal(g.chromosome, "17");
      assert.deepEqual(g.aliases, ["P53", "BCC7", "LFS1", "TRP53"]);
      assert.deepEqual(g.organism, { name: "Homo sapiens", taxon_id: "9606" });
      assert.equal(g.type, "protein-coding");
      assert.match(g.summary as string, /tumor suppressor protein/);
      assert.deepEqual(g.genomic_location, {
        assembly: "GRCh38.p2",
        accession: "NC_000017.11",
        start: 7668402,
        end: 7687550,
        strand: "minus",
      });
      const x = g.cross_references;
      assert.equal(x.hgnc, "HGNC:11998");
      assert.deepEqual(x.ensembl_gene, ["ENSG00000141510"]);
      assert.equal((x.uniprot as string[])[0], "P04637");
      assert.ok((x.refseq_mrna as string[]).includes("NM_000546.5"));
      assert.ok((x.refseq_protein as string[]).includes("NP_000537.3"));
      assert.deepEqual(x.refseq_gene, ["NG_017013.2"]);
      assert.ok(!JSON.stringify(result.structuredContent).includes("null"), "no null anywhere");
      const [efetch] = paramsOf(h.requests, "/efetch.fcgi");
      assert.deepEqual([efetch.get("db"), efetch.get("id"), efetch.get("retmode")], ["gene", "7157", "xml"]);
    });

    await t.step("NCBIGene:4747 gives NEFL; keys without a reference are absent", async () => {
      const g = (await h.call("get_gene", { entrez_id: "NCBIGene:4747" })).structuredContent as {
        symbol: string;
        cross_references: Record<string, unknown>;
      };
      assert.equal(g.symbol, "NEFL");
      assert.equal(g.cross_references.hgnc, "HGNC:7739");
      assert.deepEqual(g.cross_references.uniprot, ["P07196"]);
      assert.deepEqual(g.cross_references.refseq_mrna, ["NM_006158.4"]);
      assert.equal("ensembl_gene" in g.cross_references, false);
    });

    await t.step("a gene without a placement omits genomic_location", async () => {
      const g = (await h.call("get_gene", { entrez_id: "NCBIGene:105694156" })).structuredContent;
      assert.equal("genomic_location" in g, false);
      assert.deepEqual(g.cross_references, { hgnc: "HGNC:49316" });
    });

    await t.step("a raw symbol is UNRESOLVED_ENTITY pointing at search_genes", async () => {
      const result = await h.call("get_gene", { entrez_id: "TP53" });
      assert.equal(result.isError, true);
      assert.deepEqual(errorOf(result), {
        code: "UNRESOLVED_ENTITY",
        message: "'TP53' is not an NCBIGene CURIE; gene symbols and names must be resolved first.",
        recovery_hint: 'Call search_genes("TP53") to resolve it to an NCBIGene CURIE',
        invalid_input: { field: "entrez_id", value: "TP53" },
      });
    });

    await t.step("a bare or mis-prefixed number is INVALID_INPUT showing the CURIE to write", async () => {
      for (const value of ["7157", "ncbigene:7157", "GeneID:7157", " NCBIGene:7157"]) {
        const error = errorOf(await h.call("get_gene", { entrez_id: value }));
        assert.equal(error.code, "INVALID_INPUT", value);
        assert.match(error.recovery_hint, /"NCBIGene:7157"/);
      }
    });

    await t.step("a well-formed id NCBI does not have is ENTITY_NOT_FOUND", async () => {
      const error = errorOf(await h.call("get_gene", { entrez_id: "NCBIGene:999999999" }));
      assert.equal(error.code, "ENTITY_NOT_FOUND");
      assert.match(error.message, /NCBIGene:999999999/);
      assert.match(error.recovery_hint, /search_genes/);
    });

    await t.step("missing or extra arguments are INVALID_INPUT", async () => {
      assert.equal(errorOf(await h.call("get_gene", {})).code, "INVALID_INPUT");
      assert.equal(
        errorOf(await h.call("get_gene", { entrez_id: "NCBIGene:1", detail: "full" })).code,
        "INVALID_INPUT",
      );
    });
  } finally {
    await h.close();
  }
});

Deno.test("get_gene maps upstream faults to error envelopes", async (t) => {
  await t.step("HTTP 500 → UPSTREAM_ERROR", async () => {
    const boom = () => new Response("boom", { status: 500 });
    assert.equal(errorOf(await callOnce(boom, "get_gene", { entrez_id: "NCBIGene:7157" })).code, "UPSTREAM_ERROR");
  });
  await t.step("a truncated record → UPSTREAM_ERROR", async () => {
    const truncated = () => new Response("<Entrezgene-Set><Entrezgene><Entrezgene_track-info>");
    const error = errorOf(await callOnce(truncated, "get_gene", { entrez_id: "NCBIGene:7157" }));
    assert.equal(error.code, "UPSTREAM_ERROR");
    assert.match(error.message, /incomplete XML/);
  });
  await t.step("a replaced id is ENTITY_NOT_FOUND naming the current id", async () => {
    const replaced = `<?xml version="1.0"?><Entrezgene-Set><Entrezgene><Entrezgene_track-info><Gene-track>
      <Gene-track_geneid>100</Gene-track_geneid><Gene-track_status value="secondary">1</Gene-track_status>
      <Gene-track_current-id><Dbtag><Dbtag_db>GeneID</Dbtag_db><Dbtag_tag><Object-id><Object-id_id>200</Object-id_id>
      </Object-id></Dbtag_tag></Dbtag></Gene-track_current-id></Gene-track></Entrezgene_track-info></Entrezgene>
      </Entrezgene-Set>`;
    const error = errorOf(await callOnce(() => new Response(replaced), "get_gene", { entrez_id: "NCBIGene:100" }));
    assert.equal(error.code, "ENTITY_NOT_FOUND");
    assert.equal(error.recovery_hint, 'Call get_gene("NCBIGene:200") for the current record.');
  });
});
