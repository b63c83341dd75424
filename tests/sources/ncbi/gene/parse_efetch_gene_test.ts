import assert from "node:assert/strict";
import { UpstreamError } from "../../../../src/core/errors.ts";
import { XREF_KEYS } from "../../../../src/sources/ncbi/gene/cross_references.ts";
import { parseGeneRecord } from "../../../../src/sources/ncbi/gene/parse_efetch_gene.ts";
import { fixture } from "../../../helpers/runtime.ts";
import { EFETCH_URL, recordedGeneSet, recordedNefl } from "./gene_fixtures.ts";

Deno.test("parseGeneRecord reads TP53 (7157) out of the recorded 26 MB four-gene set", async (t) => {
  const xml = await recordedGeneSet();
  const started = performance.now();
  const tp53 = parseGeneRecord(xml, "7157", EFETCH_URL)!;
  const ms = performance.now() - started;

  await t.step("identity, names and organism", () => {
    assert.equal(tp53.geneId, "7157");
    assert.equal(tp53.symbol, "TP53");
    assert.equal(tp53.name, "tumor protein p53");
    assert.equal(tp53.description, "cellular tumor antigen p53");
    assert.match(tp53.summary, /^This gene encodes a tumor suppressor protein/);
    assert.equal(tp53.mapLocation, "17p13.1");
    assert.equal(tp53.chromosome, "17");
    assert.deepEqual(tp53.aliases, ["P53", "BCC7", "LFS1", "TRP53"]);
    assert.deepEqual(tp53.organism, { name: "Homo sapiens", taxonId: "9606" });
    assert.equal(tp53.type, "protein-coding");
    assert.equal(tp53.status, "live");
  });
  await t.step("genomic location on the reference assembly, converted to 1-based", () => {
    assert.deepEqual(tp53.genomicLocation, {
      assembly: "GRCh38.p2",
      accession: "NC_000017.11",
      start: 7668402,
      end: 7687550,
      strand: "minus",
    });
  });
  await t.step("cross-references: hgnc, ensembl_gene, omim, uniprot, refseq", () => {
    const x = tp53.crossReferences;
    assert.equal(x.hgnc, "HGNC:11998");
    assert.deepEqual(x.ensembl_gene, ["ENSG00000141510"]);
    assert.deepEqual(x.omim, ["191170"]);
    assert.equal(x.uniprot?.[0], "P04637", "the reviewed Swiss-Prot entry comes first");
    assert.deepEqual(x.uniprot?.slice(1).sort(), [
      "A0A087WT22",
      "A0A087WXZ1",
      "A0A087X1Q1",
      "H2EHT1",
      "K7PPA8",
      "Q53GA5",
    ]);
    assert.equal(x.refseq_mrna?.length, 15);
    assert.ok(x.refseq_mrna?.includes("NM_000546.5"));
    assert.equal(x.refseq_protein?.length, 15);
    assert.ok(x.refseq_protein?.includes("NP_000537.3"));
    assert.deepEqual(x.refseq_gene, ["NG_017013.2"]);
  });
  await t.step("keys without a reference are omitted, never null; no key outside the registry", () => {
    const x = tp53.crossReferences as Record<string, unknown>;
    for (const [key, value] of Object.entries(x)) {
      assert.ok(XREF_KEYS.includes(key as never), key);
      assert.notEqual(value, null);
    }
    assert.equal("mgi" in x, false);
    assert.equal("alliance_genome" in x, false, "the 2017 record predates AllianceGenome tags");
  });
  await t.step("parsing only what is reported keeps a 15 MB record fast", () => {
    assert.ok(ms < 1500, `took ${ms.toFixed(0)} ms`);
  });
});

Deno.test("parseGeneRecord picks the requested record from a multi-record set", async () => {
  const xml = await recordedGeneSet();
  const apoe = parseGeneRecord(xml, "348", EFETCH_URL)!;
  assert.equal(apoe.symbol, "APOE");
  assert.equal(apoe.crossReferences.hgnc, "HGNC:613");
  assert.deepEqual(apoe.crossReferences.uniprot, ["P02649"]);
  assert.deepEqual(apoe.crossReferences.refseq_gene, ["NG_007084.2"]);
  assert.equal(apoe.genomicLocation?.strand, "plus");
  const tnf = parseGeneRecord(xml, "7124", EFETCH_URL)!;
  assert.equal(tnf.symbol, "TNF");
  assert.deepEqual(tnf.crossReferences.refseq_mrna, ["NM_000594.3"]);
});

Deno.test("parseGeneRecord reads a sparse record (type other, no locus placement, no products)", async () => {
  const ervw = parseGeneRecord(await recordedGeneSet(), "105694156", EFETCH_URL)!;
  assert.equal(ervw.symbol, "ERVW-28");
  assert.equal(ervw.type, "other");
  assert.equal(ervw.genomicLocation, undefined);
  assert.equal(ervw.chromosome, "");
  assert.equal(ervw.description, "");
  assert.deepEqual(ervw.aliases, []);
  assert.deepEqual(ervw.crossReferences, { hgnc: "HGNC:49316" });
});

Deno.test("parseGeneRecord reads NEFL (4747): numeric HGNC tag, no Ensembl gene id", () => {
  const nefl = parseGeneRecord(recordedNefl(), "4747", EFETCH_URL)!;
  assert.equal(nefl.symbol, "NEFL");
  assert.equal(nefl.name, "neurofilament, light polypeptide");
  assert.equal(nefl.mapLocation, "8p21");
  assert.deepEqual(nefl.aliases, ["NFL", "NF-L", "NF68", "CMT1F", "CMT2E"]);
  assert.deepEqual(nefl.genomicLocation, {
    assembly: "GRCh37.p13",
    accession: "NC_000008.10",
    start: 24808468,
    end: 24814383,
    strand: "minus",
  });
  const x = nefl.crossReferences as Record<string, unknown>;
  assert.equal(x.hgnc, "HGNC:7739", "the 2014 record tags HGNC with a bare number");
  assert.equal("ensembl_gene" in x, false, "its only Ensembl tag is empty (a transcript link), so the key is omitted");
  assert.deepEqual(x.omim, ["162280"]);
  assert.deepEqual(x.uniprot, ["P07196"]);
  assert.deepEqual(x.refseq_mrna, ["NM_006158.4"]);
  assert.deepEqual(x.refseq_protein, ["NP_006149.2"]);
  assert.deepEqual(x.refseq_gene, ["NG_008492.1"]);
});

Deno.test("parseGeneRecord answers undefined when NCBI has no such gene", async () => {
  assert.equal(parseGeneRecord(await recordedGeneSet(), "1", EFETCH_URL), undefined);
  assert.equal(
    parseGeneRecord(fixture("ncbi/gene/efetch_gene_not_found.built.xml"), "999999999", EFETCH_URL),
    undefined,
  );
  assert.equal(
    parseGeneRecord(fixture("ncbi/gene/pubmedly__efetch_empty_id_error.xml"), "999999999", EFETCH_URL),
    undefined,
  );
});

Deno.test("parseGeneRecord reports a replaced record's current id", () => {
  const xml = `<?xml version="1.0"?><Entrezgene-Set><Entrezgene><Entrezgene_track-info><Gene-track>
    <Gene-track_geneid>100</Gene-track_geneid><Gene-track_status value="secondary">1</Gene-track_status>
    <Gene-track_current-id><Dbtag><Dbtag_db>LocusID</Dbtag_db><Dbtag_tag><Object-id><Object-id_id>200</Object-id_id>
    </Object-id></Dbtag_tag></Dbtag><Dbtag><Dbtag_db>GeneID</Dbtag_db><Dbtag_tag><Object-id><Object-id_id>200</Object-id_id>
    </Object-id></Dbtag_tag></Dbtag></Gene-track_current-id></Gene-track></Entrezgene_track-info>
    <Entrezgene_type value="unknown">0</Entrezgene_type></Entrezgene></Entrezgene-Set>`;
  const record = parseGeneRecord(xml, "100", EFETCH_URL)!;
  assert.equal(record.status, "secondary");
  assert.equal(record.currentId, "200");
});

Deno.test("parseGeneRecord decodes entities in scanned and parsed text", () => {
  const xml = `<Entrezgene-Set><Entrezgene><Entrezgene_track-info><Gene-track><Gene-track_geneid>5</Gene-track_geneid>
    </Gene-track></Entrezgene_track-info><Entrezgene_gene><Gene-ref><Gene-ref_locus>A&amp;B</Gene-ref_locus>
    <Gene-ref_desc>alpha &lt;beta&gt; &#946;</Gene-ref_desc></Gene-ref></Entrezgene_gene></Entrezgene></Entrezgene-Set>`;
  const record = parseGeneRecord(xml, "5", EFETCH_URL)!;
  assert.equal(record.symbol, "A&B");
  assert.equal(record.name, "alpha <beta> β");
});

Deno.test("parseGeneRecord rejects a body that is not XML as an upstream parse error", () => {
  assert.throws(
    () => parseGeneRecord('{"error":"API rate limit exceeded"}', "7157", EFETCH_URL),
    (e: unknown) => e instanceof UpstreamError && e.kind === "parse" && e.upstream === "ncbi-eutils",
  );
});

Deno.test("parseGeneRecord rejects a truncated record instead of reporting part of it", async () => {
  const xml = await recordedGeneSet();
  const cut = xml.slice(0, xml.indexOf("<Gene-track_geneid>7157</Gene-track_geneid>") + 200_000);
  assert.throws(
    () => parseGeneRecord(cut, "7157", EFETCH_URL),
    (e: unknown) => e instanceof UpstreamError && e.kind === "parse" && /incomplete XML/.test(e.message),
  );
});

Deno.test("parseGeneRecord lists the primary UniProt accession first and only current RefSeq versions", () => {
  // Built from the NEFL record: a secondary and a TrEMBL accession before the primary, the primary again as
  // P07196.3; RefSeq products at .5/.3 on every placement except the RefSeqGene alignment, still at .4/.2.
  const record = parseGeneRecord(fixture("ncbi/gene/built__gene_4747_xref_variants.xml"), "4747", EFETCH_URL)!;
  assert.deepEqual(record.crossReferences.uniprot, ["P07196", "Q96A54", "A0A024R3N7"]);
  assert.deepEqual(record.crossReferences.refseq_mrna, ["NM_006158.5"]);
  assert.deepEqual(record.crossReferences.refseq_protein, ["NP_006149.3"]);
  assert.deepEqual(record.crossReferences.refseq_gene, ["NG_008492.1"]);
});
