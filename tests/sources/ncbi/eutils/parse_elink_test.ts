import assert from "node:assert/strict";
import { ToolError } from "../../../../src/core/errors.ts";
import { linksFor, parseELink } from "../../../../src/sources/ncbi/eutils/parse_elink.ts";
import { fixture } from "../../../helpers/runtime.ts";

const similar = () => parseELink(fixture("ncbi/eutils/biopython__elink1_2008_scores.xml"), "u");

Deno.test("linksFor takes the links of the LinkSet about the id asked for", () => {
  const links = linksFor(similar(), "9298984", "pubmed_pubmed");
  assert.equal(links[0].id, "9298984");
  assert.ok(links.length > 100);
});

Deno.test("linksFor refuses an answer whose LinkSets are all about other ids", () => {
  assert.throws(
    () => linksFor(similar(), "12242737", "pubmed_pubmed"),
    (e: unknown) =>
      e instanceof ToolError && e.code === "UPSTREAM_ERROR" &&
      e.message === "NCBI ELink answered for id 9298984, not for 12242737.",
  );
});

Deno.test("linksFor: no LinkSet is no links; a LinkSet without an IdList answers for the one id asked", () => {
  assert.deepEqual(linksFor([], "1", "pubmed_pubmed"), []);
  const bare = parseELink(
    "<eLinkResult><LinkSet><DbFrom>pubmed</DbFrom><LinkSetDb><DbTo>pubmed</DbTo><LinkName>pubmed_pubmed</LinkName>" +
      "<Link><Id>7</Id></Link></LinkSetDb></LinkSet></eLinkResult>",
    "u",
  );
  assert.deepEqual(linksFor(bare, "1", "pubmed_pubmed"), [{ id: "7" }]);
});
