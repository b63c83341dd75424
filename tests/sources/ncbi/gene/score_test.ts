import assert from "node:assert/strict";
import { rankByScore, type Scorable, scoreGene, scoringText } from "../../../../src/sources/ncbi/gene/score.ts";
import { parseGeneSummaries } from "../../../../src/sources/ncbi/gene/parse_esummary_gene.ts";
import { fixture } from "../../../helpers/runtime.ts";

const gene = (symbol: string, name: string, extra: Partial<Scorable> = {}): Scorable => ({
  symbol,
  name,
  aliases: [],
  designations: [],
  summary: "",
  ...extra,
});

const summaries = parseGeneSummaries(fixture("ncbi/gene/esummary_gene.built.xml"), "u");
const byId = (id: string) => summaries.find((s) => s.geneId === id)!;

Deno.test("score tiers: exact symbol > symbol ignoring case > alias > symbol prefix > words", () => {
  assert.equal(scoreGene("BRCA1", gene("BRCA1", "BRCA1, DNA repair associated")), 1);
  assert.equal(scoreGene("BRCA1", gene("Brca1", "breast cancer 1, early onset")), 0.95);
  assert.equal(scoreGene("p53", gene("TP53", "tumor protein p53", { aliases: ["P53", "LFS1"] })), 0.85);
  assert.equal(scoreGene("BRCA", gene("BRCA1", "x")), 0.76);
  assert.equal(scoreGene("BRCA1", gene("BRCA1P1", "BRCA1 pseudogene 1")), 0.743);
  const words = scoreGene("BRCA1", gene("BARD1", "BRCA1 associated RING domain 1"));
  assert.ok(words > 0 && words < 0.6, String(words));
  assert.equal(scoreGene("BRCA1", gene("NEFL", "neurofilament light")), 0);
});

Deno.test("word scores: full name beats product names beats summary, and never reach the prefix tier", () => {
  const inName = scoreGene("tumor suppressor", gene("TUSC1", "tumor suppressor candidate 1"));
  const inProduct = scoreGene("tumor suppressor", gene("VHLX", "other", { designations: ["a tumor suppressor"] }));
  const inSummary = scoreGene("tumor suppressor", gene("X", "other", { summary: "acts as a tumor suppressor" }));
  const exactName = scoreGene("tumor protein p53", gene("TP53", "tumor protein p53"));
  assert.ok(inName > inProduct && inProduct > inSummary && inSummary > 0, `${inName} ${inProduct} ${inSummary}`);
  assert.equal(exactName, 0.59, "the ceiling of the word tier: every word, whole name, verbatim");
  assert.equal(inSummary, 0.15, "0.5 × 0.3 coverage");
});

Deno.test("scoring ignores Entrez syntax: field tags, quotes, parentheses, boolean operators", () => {
  assert.equal(scoringText('("BRCA1"[sym]) AND human[orgn]'), "BRCA1 human");
  assert.equal(scoreGene("BRCA1[sym]", gene("BRCA1", "x")), 1);
  assert.equal(scoreGene("[sym]", gene("BRCA1", "x")), 0);
});

Deno.test("'BRCA1' puts human BRCA1 first even when NCBI lists the mouse ortholog first", () => {
  const ncbiOrder = ["12189", "580", "394269", "672", "497672"].map(byId);
  const ranked = rankByScore(ncbiOrder.map((s) => ({ id: s.geneId, score: scoreGene("BRCA1", s) })));
  assert.deepEqual(ranked.map((r) => r.id), ["672", "12189", "497672", "394269", "580"]);
  assert.deepEqual(ranked.map((r) => r.score), [1, 0.95, 0.95, 0.743, 0.51]);
});

Deno.test("'tumor suppressor' ranks many candidates: names first, then products, then the rest in NCBI order", () => {
  const ids = ["7157", "5925", "5728", "1029", "7428", "324", "11334", "11178", "286319", "7991", "23705", "7490"];
  const ranked = rankByScore(ids.map(byId).map((s) => ({ id: s.geneId, score: scoreGene("tumor suppressor", s) })));
  assert.equal(ranked.length, 12);
  assert.deepEqual(ranked.slice(0, 5).map((r) => r.id).sort(), ["11178", "11334", "286319", "7428", "7991"]);
  assert.equal(ranked[0].id, "286319", "TUSC1: the name is mostly the query");
  assert.deepEqual(ranked.slice(5, 8).map((r) => r.id), ["7157", "1029", "23705"], "product-name matches, NCBI order");
  assert.equal(ranked[8].id, "7490", "WT1: one word of two");
  assert.deepEqual(ranked.slice(9).map((r) => r.score), [0, 0, 0]);
  for (let i = 1; i < ranked.length; i++) assert.ok(ranked[i - 1].score >= ranked[i].score);
  for (const r of ranked) assert.ok(r.score >= 0 && r.score <= 1);
});

Deno.test("rankByScore keeps the input order for equal scores", () => {
  const ranked = rankByScore([{ id: "a", score: 0.5 }, { id: "b", score: 0.9 }, { id: "c", score: 0.5 }]);
  assert.deepEqual(ranked.map((r) => r.id), ["b", "a", "c"]);
});
