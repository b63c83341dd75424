import assert from "node:assert/strict";
import { parseCrossrefWork, retractionNotices } from "../../../src/sources/crossref/parse_work.ts";
import { parseWork } from "../../../src/sources/openalex/parse_work.ts";
import { formatCslJson } from "../../../src/sources/citations/csl_json.ts";
import { splitDisplayName } from "../../../src/sources/citations/csl.ts";
import { formatCitations } from "../../../src/sources/citations/format.ts";
import { crossrefToCsl } from "../../../src/sources/citations/from/crossref.ts";
import { openalexToCsl } from "../../../src/sources/citations/from/openalex.ts";
import { fixture } from "../../helpers/runtime.ts";

const carberry = () => parseCrossrefWork(fixture("crossref/built__work_10.5555_12345678.json"), "u");

Deno.test("a Crossref work reads its names, container, dates and both relation lists", () => {
  const w = carberry();
  assert.equal(w.doi, "10.5555/12345678");
  assert.deepEqual(w.authors, [{ family: "Carberry", given: "Josiah" }]);
  assert.equal(w.containerTitle, "Journal of Psychoceramics");
  assert.equal(w.issued, "2008-02-29");
  assert.deepEqual(w.updateTo.map((u) => u.type), ["corrigendum"]);
  assert.deepEqual(retractionNotices(w), [{
    type: "retraction",
    doi: "10.5555/24242424x",
    label: "Retraction",
    source: "publisher",
    date: "2009-09-14",
  }]);
});

Deno.test("a Crossref record without retraction relations has no notices; a corrigendum is not one", () => {
  const w = carberry();
  assert.equal(retractionNotices({ ...w, updatedBy: w.updatedBy.filter((u) => u.type !== "retraction") }).length, 0);
});

Deno.test("Crossref and OpenAlex records render through the CSL styles", async () => {
  const out = await formatCitations(crossrefToCsl(carberry()), ["apa_string", "vancouver_string"]);
  assert.equal(
    out.apa_string,
    "Carberry, J. (2008). Toward a Unified Theory of High-Energy Metaphysics: Silly String Theory. Journal of " +
      "Psychoceramics, 1(1). https://doi.org/10.5555/12345678",
  );
  assert.equal(
    out.vancouver_string,
    "Carberry J. Toward a Unified Theory of High-Energy Metaphysics: Silly String Theory. JP. 2008 Feb 29;1(1). " +
      "doi:10.5555/12345678",
  );
  const oa = openalexToCsl(parseWork(JSON.parse(fixture("openalex/openalexpython__W2741809807_2025.json"))));
  const csl = JSON.parse(formatCslJson(oa));
  assert.equal(csl.type, "article-journal");
  assert.equal(csl["container-title"], "PeerJ");
  assert.deepEqual(csl.issued, { "date-parts": [[2018, 2, 13]] });
  assert.equal(csl.PMCID, "PMC5815332");
  assert.deepEqual(csl.author[0], { family: "Piwowar", given: "Heather" });
});

Deno.test("a display name splits at its last word; a single word is a family name", () => {
  assert.deepEqual(splitDisplayName("Jevin D. West"), { family: "West", given: "Jevin D." });
  assert.deepEqual(splitDisplayName("UNESCO"), { family: "UNESCO" });
});
