import assert from "node:assert/strict";
import { doiFromUrl, doiUrl } from "../../src/sources/doi_url.ts";

const SICI = "10.1002/(sici)1097-0258(19980415)17:7<857::aid-sim777>3.0.co;2-e";

Deno.test("doiUrl leaves ordinary DOIs as they are", () => {
  assert.equal(doiUrl("10.1037/amp0000904"), "https://doi.org/10.1037/amp0000904");
  assert.equal(doiUrl("10.1016/0005-2795(76)90109-4"), "https://doi.org/10.1016/0005-2795(76)90109-4");
});

Deno.test("doiUrl percent-encodes what a URL path cannot hold, and decoding gives the DOI back", () => {
  assert.equal(
    doiUrl(SICI),
    "https://doi.org/10.1002/(sici)1097-0258(19980415)17:7%3C857::aid-sim777%3E3.0.co;2-e",
  );
  for (const doi of [SICI, "10.1000/a#b?c", "10.1000/100%", '10.1000/"x" y', "10.1000/[1]{2}|^`\\", "10.1000/é"]) {
    const url = new URL(doiUrl(doi));
    assert.equal(url.hash, "", doi);
    assert.equal(url.search, "", doi);
    assert.doesNotMatch(url.href, /[<>"\s{}|\\^`[\]]/, doi);
    assert.equal(decodeURIComponent(url.pathname.slice(1)), doi);
    assert.equal(doiFromUrl(url.href), doi, "round trip");
  }
});

Deno.test("doiFromUrl strips doi.org and decodes only encoded links", () => {
  assert.equal(doiFromUrl("https://doi.org/10.7717/peerj.4375"), "10.7717/peerj.4375");
  assert.equal(doiFromUrl("http://dx.doi.org/10.1103/PhysRevB.85.115117"), "10.1103/PhysRevB.85.115117");
  assert.equal(doiFromUrl("https://doi.org/10.1002/x%3C1%3E"), "10.1002/x<1>");
  assert.equal(doiFromUrl("https://doi.org/10.1000/100%zz"), "10.1000/100%zz");
});
