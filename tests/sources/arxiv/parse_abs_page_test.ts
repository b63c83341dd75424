import assert from "node:assert/strict";
import { parseAbsPage } from "../../../src/sources/arxiv/parse_abs_page.ts";
import { fixture } from "../../helpers/runtime.ts";

Deno.test("parseAbsPage reads the citation_* tags of an abstract page", () => {
  const e = parseAbsPage(fixture("arxiv/html/tkukurin__abs_2106.09608.html"))!;
  assert.equal(e.id, "2106.09608v2");
  assert.equal(e.title, "Learning Knowledge Graph-based World Models of Textual Environments");
  assert.deepEqual(e.authors, ["Prithviraj Ammanabrolu", "Mark O. Riedl"]);
  assert.equal(e.published, "2021-06-17");
  assert.equal(e.updated, "2021-10-20");
  assert.equal(e.pdfUrl, "https://arxiv.org/pdf/2106.09608");
  assert.match(e.summary, /^World models improve a learning agent's ability/);
});

Deno.test("parseAbsPage returns undefined for a page that is not an abstract page", () => {
  assert.equal(parseAbsPage(fixture("arxiv/html/arxivbrowse__html_2401.10725v1_eptcs_not_latexml.html")), undefined);
  assert.equal(parseAbsPage("<html><head><title>x</title></head></html>"), undefined);
});
