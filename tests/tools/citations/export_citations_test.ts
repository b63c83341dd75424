import assert from "node:assert/strict";
import { EXIT_OK, EXIT_TOOL_ERROR } from "../../../src/cli/main.ts";
import { withTools } from "../../helpers/tool_harness.ts";
import { cliCall } from "./cli_io.ts";

const ENV = { SCIENCE_MCP_TOOLSETS: "papers", OPENALEX_API_KEY: "test-key" };

interface Item {
  id: string;
  source: string;
  retracted?: string;
  citations: Record<string, string>;
}

Deno.test("export_citations formats a PMID, a DOI, a W id and an arXiv id from the right source", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const result = await h.call("export_citations", {
      ids: ["9500320", "10.5555/12345678", "W2741809807", "arXiv:1111.2011"],
      styles: ["bibtex", "vancouver_string", "csl_json"],
    });
    assert.equal(result.isError, undefined, result.content[0].text);
    const items = result.structuredContent.items as Item[];
    assert.deepEqual(items.map((i) => i.source), ["PubMed", "Crossref", "OpenAlex", "arXiv"]);
    const [pubmed, crossref, openalex, arxiv] = items;
    assert.match(pubmed.citations.bibtex, /^@article\{Wakefield1998_9500320,/);
    assert.equal(
      pubmed.citations.vancouver_string,
      "Wakefield AJ, Murch SH, Anthony A. Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive " +
        "developmental disorder in children. Lancet. 1998 Feb 28;351(9103):637–41. doi:10.1016/s0140-6736(97)11096-0 " +
        "PubMed PMID: 9500320.",
    );
    assert.match(pubmed.retracted!, /PubMed: retraction notice PMID 20137807/);
    assert.equal(crossref.retracted, "Crossref: retraction 10.5555/24242424x (2009-09-14, publisher)");
    assert.deepEqual(JSON.parse(crossref.citations.csl_json).author, [{ family: "Carberry", given: "Josiah" }]);
    assert.equal(openalex.retracted, undefined);
    assert.equal(JSON.parse(openalex.citations.csl_json).PMID, "29456894");
    assert.match(arxiv.citations.bibtex, /eprint = \{1111\.2011v2\}/);
    assert.match(result.content[0].text, /## 9500320 \(PubMed\) RETRACTED: PubMed: retraction notice/);
    const crossrefCall = h.requests.find((r) => r.url.host === "api.crossref.org");
    assert.ok(crossrefCall, "the DOI was looked up at Crossref");
  });
});

Deno.test("export_citations renders all eleven styles in one call", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const styles = [
      "ama_string",
      "harvard_string",
      "nature_string",
      "ieee_string",
      "chicago_author_date_string",
      "vancouver_string",
      "csl_json",
      "mla_string",
      "apa_string",
      "bibtex",
      "ris",
    ];
    const result = await h.call("export_citations", { ids: ["10.5555/12345678"], styles });
    assert.equal(result.isError, undefined, result.content[0].text);
    const [item] = result.structuredContent.items as Item[];
    assert.deepEqual(Object.keys(item.citations).sort(), [...styles].sort());
    assert.match(item.citations.ieee_string, /^J\. Carberry, “Toward a Unified Theory of High-Energy Metaphysics/);
    assert.match(item.citations.chicago_author_date_string, /^Carberry, Josiah\. 2008\. “Toward/);
    assert.match(item.citations.harvard_string, /^Carberry, J\. \(2008\) ‘Toward/);
    assert.match(item.citations.ama_string, /^Carberry J\. Toward a Unified Theory/);
    assert.match(item.citations.nature_string, /^Carberry, J\. Toward a Unified Theory/);
    const text = result.content[0].text;
    for (const s of styles) assert.ok(text.includes(`${s}:`), s);
  });
});

Deno.test("export_citations lists unknown ids, and fails with ENTITY_NOT_FOUND when none resolves (CLI)", async () => {
  await withTools({ env: ENV }, async (h) => {
    const partial = await cliCall(h, "export_citations", { ids: ["34843274", "10.9999/nope"] });
    assert.equal(partial.code, EXIT_OK, partial.out);
    const out = JSON.parse(partial.out);
    assert.equal(out.items.length, 1);
    assert.equal(out.not_found[0].id, "10.9999/nope");
    const none = await cliCall(h, "export_citations", { ids: ["10.9999/nope"] });
    assert.equal(none.code, EXIT_TOOL_ERROR);
    assert.equal(JSON.parse(none.out).error.code, "ENTITY_NOT_FOUND");
    const bad = await cliCall(h, "export_citations", { ids: ["hello"] });
    assert.equal(JSON.parse(bad.out).error.code, "INVALID_INPUT");
  });
});

Deno.test("export_citations lists corrections beside retractions, per item and in the text", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    // 35649368: a recorded PubMed record with an erratum; 10.5555/12345678: Crossref's sample work (BUILT from
    // Crossref's documented answer) with a corrigendum and a retraction.
    const result = await h.call("export_citations", { ids: ["35649368", "10.5555/12345678"], styles: ["ris"] });
    assert.equal(result.isError, undefined, result.content[0].text);
    const [pubmed, crossref] = result.structuredContent.items as (Item & { updates?: unknown[] })[];
    assert.deepEqual(pubmed.updates, [
      { type: "correction", id: "PMID:35767954", date: "2022-06-28", source: "PubMed" },
    ]);
    assert.equal(pubmed.retracted, undefined);
    assert.deepEqual(crossref.updates, [
      { type: "correction", id: "doi:10.5555/12345678", date: "2018-01-01", source: "Crossref" },
      { type: "retraction", id: "doi:10.5555/24242424x", date: "2009-09-14", source: "Crossref" },
    ]);
    const text = result.content[0].text;
    assert.match(text, /## 35649368 \(PubMed\)\nupdates: correction PMID:35767954 \(2022-06-28, PubMed\)\n/);
  });
});
