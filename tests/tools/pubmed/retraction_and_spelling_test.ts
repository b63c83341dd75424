import assert from "node:assert/strict";
import { EXIT_OK } from "../../../src/cli/main.ts";
import { parseESpell } from "../../../src/sources/ncbi/pubmed/espell.ts";
import { fixture } from "../../helpers/runtime.ts";
import { withTools } from "../../helpers/tool_harness.ts";
import { cliCall } from "../citations/cli_io.ts";

const ENV = { SCIENCE_MCP_TOOLSETS: "pubmed" };

Deno.test("fetchArticleDetails flags a retracted article with its notice, over MCP", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const result = await h.call("fetchArticleDetails", { pmids: ["9500320", "34843274"] });
    assert.equal(result.isError, undefined);
    const [retracted, other] = result.structuredContent.articles as Record<string, unknown>[];
    assert.deepEqual(retracted.retractedIn, [{
      refSource: "Lancet. 2010 Feb 6;375(9713):445. doi: 10.1016/S0140-6736(10)60175-4.",
      pmid: "20137807",
    }]);
    assert.equal(other.retractedIn, undefined);
    const text = result.content[0].text;
    assert.match(text, /PMID 9500320 RETRACTED: Ileal-lymphoid/);
    assert.match(text, /RETRACTED: notice PMID 20137807 \(Lancet\. 2010 Feb 6/);
    assert.doesNotMatch(text, /PMID 34843274 RETRACTED/);
  });
});

Deno.test("fetchArticleDetails shows corrections beside retractions: updates [{type, id, date}]", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    // 35649368 (Cell Rep 2022, recorded) links an erratum; 9500320 a retraction; 34843274 nothing.
    const result = await h.call("fetchArticleDetails", { pmids: ["35649368", "9500320", "34843274"] });
    assert.equal(result.isError, undefined);
    const [corrected, retracted, other] = result.structuredContent.articles as Record<string, unknown>[];
    assert.deepEqual(corrected.updates, [
      { type: "correction", id: "PMID:35767954", date: "2022-06-28", source: "PubMed" },
    ]);
    assert.equal(corrected.retractedIn, undefined, "a correction is no retraction");
    assert.deepEqual(retracted.updates, [
      { type: "retraction", id: "PMID:20137807", date: "2010-02-06", source: "PubMed" },
    ]);
    assert.equal(other.updates, undefined);
    const text = result.content[0].text;
    assert.match(text, /^updates: correction PMID:35767954 \(2022-06-28, PubMed\)$/m);
    assert.doesNotMatch(text, /PMID 35649368 RETRACTED/);
    const cited = await h.call("fetchArticleDetails", { pmids: ["35649368"], detailLevel: "citation_data" });
    assert.equal((cited.structuredContent.articles as { updates: unknown[] }[])[0].updates.length, 1);
  });
});

Deno.test("fetchArticleDetails citation_data keeps the retraction notice, from the CLI", async () => {
  await withTools({ env: ENV }, async (h) => {
    const { code, out } = await cliCall(h, "fetchArticleDetails", { pmids: ["9500320"], detailLevel: "citation_data" });
    assert.equal(code, EXIT_OK);
    assert.equal(JSON.parse(out).articles[0].retractedIn[0].pmid, "20137807");
  });
});

Deno.test("searchPubMedArticles suggests ESpell's spelling when nothing is found, and only then", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const miss = await h.call("searchPubMedArticles", { queryTerm: "biopythooon" });
    assert.equal(miss.structuredContent.totalFound, 0);
    assert.ok(
      (miss.structuredContent.warnings as string[]).includes(
        "Did you mean: biopython (PubMed ESpell)? Search again with that queryTerm.",
      ),
    );
    assert.match(miss.content[0].text, /warning: Did you mean: biopython/);
    const noSuggestion = await h.call("searchPubMedArticles", { queryTerm: '"nonexistent phrase zqx"' });
    assert.ok(!(noSuggestion.structuredContent.warnings as string[]).some((w) => w.startsWith("Did you mean")));
    const hit = await h.call("searchPubMedArticles", { queryTerm: "cancer" });
    assert.ok(hit.structuredContent.totalFound as number > 0);
    assert.ok(
      !h.requests.slice(-1)[0].url.pathname.endsWith("espell.fcgi"),
      "no ESpell call when PubMed finds articles",
    );
  });
});

Deno.test("ESpell's recorded answer reads as its corrected query", () => {
  assert.equal(parseESpell(fixture("ncbi/eutils/biopython__espell.xml"), "u"), "biopython");
});
