import assert from "node:assert/strict";
import { currentVersions } from "../../../../src/sources/ncbi/gene/refseq_current.ts";
import { baseAccession, orderUniprot } from "../../../../src/sources/ncbi/gene/uniprot_order.ts";
import {
  buildCrossReferences,
  crossReferencesSchema,
  refseqKey,
  XREF_KEYS,
  XREF_REGISTRY,
} from "../../../../src/sources/ncbi/gene/cross_references.ts";

const NO_PRODUCTS = { refseq: [], uniprot: [], uniprotEntries: new Set<string>() };
const seen = (...accessions: string[]) => accessions.map((accession) => ({ accession, onRefSeqGene: false }));

Deno.test("the cross-reference registry has exactly the 22 documented snake_case keys", () => {
  assert.deepEqual(XREF_KEYS, [
    "hgnc",
    "omim",
    "ensembl_gene",
    "alliance_genome",
    "mgi",
    "rgd",
    "zfin",
    "flybase",
    "wormbase",
    "sgd",
    "xenbase",
    "vgnc",
    "mirbase",
    "imgt",
    "pombase",
    "tair",
    "cgnc",
    "dictybase",
    "uniprot",
    "refseq_mrna",
    "refseq_protein",
    "refseq_gene",
  ]);
  for (const key of XREF_KEYS) {
    assert.match(key, /^[a-z]+(_[a-z]+)*$/);
    assert.ok(XREF_REGISTRY[key].description.length > 10, `${key} is documented`);
  }
});

Deno.test("the output schema takes each key's one type and refuses nulls and unknown keys", () => {
  assert.equal(crossReferencesSchema.safeParse({ hgnc: "HGNC:5", uniprot: ["P1"] }).success, true);
  assert.equal(crossReferencesSchema.safeParse({}).success, true);
  assert.equal(crossReferencesSchema.safeParse({ hgnc: null }).success, false);
  assert.equal(crossReferencesSchema.safeParse({ hgnc: ["HGNC:5"] }).success, false, "hgnc is a string");
  assert.equal(crossReferencesSchema.safeParse({ uniprot: "P1" }).success, false, "uniprot is a list");
  assert.equal(crossReferencesSchema.safeParse({ uniprot: [] }).success, false, "empty lists are omitted instead");
  assert.equal(crossReferencesSchema.safeParse({ vega: "OTTHUMG1" }).success, false);
});

Deno.test("buildCrossReferences maps model-organism tags and writes ids as their databases do", () => {
  const x = buildCrossReferences([
    { db: "MGI", value: "MGI:98834" },
    { db: "RGD", value: "3889" },
    { db: "FLYBASE", value: "FBgn0003721" },
    { db: "WormBase", value: "WBGene00000467" },
    { db: "ZFIN", value: "ZDB-GENE-990415-270" },
    { db: "SGD", value: "S000001855" },
    { db: "Xenbase", value: "XB-GENE-478054" },
    { db: "VGNC", value: "VGNC:14561" },
    { db: "miRBase", value: "MI0000060" },
    { db: "IMGT/GENE-DB", value: "IGHG1" },
    { db: "PomBase", value: "SPAC1F7.05" },
    { db: "Araport", value: "AT1G01010" },
    { db: "CGNC", value: "10114" },
    { db: "dictyBase", value: "DDB_G0267178" },
    { db: "AllianceGenome", value: "MGI:98834" },
    { db: "HGNC", value: "11998" },
    { db: "Vega", value: "OTTHUMG00000162125" },
    { db: "HPRD", value: "01859" },
  ], NO_PRODUCTS);
  assert.deepEqual(x, {
    hgnc: "HGNC:11998",
    alliance_genome: "MGI:98834",
    mgi: "MGI:98834",
    rgd: "RGD:3889",
    zfin: "ZDB-GENE-990415-270",
    flybase: "FBgn0003721",
    wormbase: "WBGene00000467",
    sgd: "S000001855",
    xenbase: "XB-GENE-478054",
    vgnc: "VGNC:14561",
    mirbase: ["MI0000060"],
    imgt: "IGHG1",
    pombase: "SPAC1F7.05",
    tair: "AT1G01010",
    cgnc: "CGNC:10114",
    dictybase: "DDB_G0267178",
  });
});

Deno.test("buildCrossReferences keeps only Ensembl gene ids and drops empty tags", () => {
  const x = buildCrossReferences([
    { db: "Ensembl", value: "" },
    { db: "Ensembl", value: "ENST00000269305" },
    { db: "Ensembl", value: "ENSMUSG00000059552" },
    { db: "MIM", value: " " },
  ], NO_PRODUCTS);
  assert.deepEqual(x, { ensembl_gene: ["ENSMUSG00000059552"] });
});

Deno.test("buildCrossReferences sorts products: Swiss-Prot before TrEMBL, curated RefSeq before models", () => {
  const x = buildCrossReferences([], {
    refseq: seen("XM_1.1", "NM_2.3", "NC_000017.11", "XP_9.1", "NP_5.2", "NG_7.1", "NR_4.1", "NM_2.3"),
    uniprot: [
      { db: "UniProtKB/TrEMBL", value: "Q53GA5" },
      { db: "UniProtKB/Swiss-Prot", value: "P04637" },
      { db: "UniProtKB/TrEMBL", value: "Q53GA5" },
    ],
    uniprotEntries: new Set(),
  });
  assert.deepEqual(x, {
    uniprot: ["P04637", "Q53GA5"],
    refseq_mrna: ["NM_2.3", "NR_4.1", "XM_1.1"],
    refseq_protein: ["NP_5.2", "XP_9.1"],
    refseq_gene: ["NG_7.1"],
  });
});

Deno.test("refseqKey classifies accessions by their documented prefix", () => {
  assert.equal(refseqKey("NM_000546.6"), "refseq_mrna");
  assert.equal(refseqKey("XR_001.1"), "refseq_mrna");
  assert.equal(refseqKey("NP_000537.3"), "refseq_protein");
  assert.equal(refseqKey("NG_017013.2"), "refseq_gene");
  assert.equal(refseqKey("NC_000017.11"), undefined);
  assert.equal(refseqKey("AF052180.1"), undefined);
});

Deno.test("UniProt: the primary reviewed accession first, once; other reviewed, then unreviewed; one per base accession", () => {
  const tags = [
    { db: "UniProtKB/Swiss-Prot", value: "Q96A54" },
    { db: "UniProtKB/TrEMBL", value: "A0A024R3N7" },
    { db: "UniProtKB/Swiss-Prot", value: "P07196" },
    { db: "UniProtKB/Swiss-Prot", value: "P07196.3" },
    { db: "UniProtKB/Swiss-Prot", value: "P07196-2" },
    { db: "UniProtKB/TrEMBL", value: "A0A024R3N7" },
    { db: "UniProtKB/Swiss-Prot", value: "not-an-accession" },
  ];
  // The UniProt entry listed among the products names the primary accession.
  assert.deepEqual(orderUniprot(tags, new Set(["P07196"])), ["P07196", "Q96A54", "A0A024R3N7"]);
  // Without an entry, the reviewed accession the record cites most often is the primary.
  assert.deepEqual(orderUniprot(tags, new Set()), ["P07196", "Q96A54", "A0A024R3N7"]);
  assert.deepEqual(orderUniprot([{ db: "UniProtKB/TrEMBL", value: "K7PPA8" }], new Set()), ["K7PPA8"]);
  assert.equal(baseAccession("a0a087x1q1.2"), "A0A087X1Q1");
  assert.equal(baseAccession("NP_000537.3"), undefined);
});

Deno.test("RefSeq: one current version per product; a RefSeqGene-only version never adds a transcript", () => {
  assert.deepEqual(
    currentVersions([
      { accession: "NM_006158.5", onRefSeqGene: false },
      { accession: "NM_006158.4", onRefSeqGene: true },
      { accession: "NM_006158.5", onRefSeqGene: false },
      { accession: "NM_000546.5", onRefSeqGene: false },
      { accession: "NM_000546.6", onRefSeqGene: false },
      { accession: "NM_000001.7", onRefSeqGene: true },
      { accession: "NM_000001.6", onRefSeqGene: false },
      { accession: "NG_008492.1", onRefSeqGene: true },
    ]),
    ["NM_006158.5", "NM_000546.6", "NM_000001.6", "NG_008492.1"],
  );
});
