import assert from "node:assert/strict";
import { ToolError } from "../../../src/core/errors.ts";
import { parseIdentifierAnswer } from "../../../src/sources/pubchem/parse_identifiers.ts";
import { pubchemFixture } from "./fakes.ts";

const URL = "https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/name/x/cids/JSON";

Deno.test("parseIdentifierAnswer reads a recorded IdentifierList", () => {
  const answer = parseIdentifierAnswer(pubchemFixture("metmashr__identifierlist_name_C00267.json"), URL, "CID");
  assert.deepEqual(answer, { kind: "ids", ids: [79025] });
});

Deno.test("parseIdentifierAnswer treats CID 0 (valid structure, not in PubChem) as no match", () => {
  const answer = parseIdentifierAnswer(pubchemFixture("built__identifierlist_cid_0_no_match.json"), URL, "CID");
  assert.deepEqual(answer, { kind: "ids", ids: [] });
});

Deno.test("parseIdentifierAnswer returns the ListKey of a Waiting answer", () => {
  const answer = parseIdentifierAnswer(pubchemFixture("built__waiting_listkey.json"), URL, "CID");
  assert.deepEqual(answer, { kind: "waiting", listKey: "3318153796219856547" });
});

Deno.test("parseIdentifierAnswer reads AIDs when asked for AIDs", () => {
  const answer = parseIdentifierAnswer(pubchemFixture("built__assay_target_genesymbol_CYP3A4_aids.json"), URL, "AID");
  assert.deepEqual(answer, { kind: "ids", ids: [884, 1851, 1911] });
});

Deno.test("parseIdentifierAnswer refuses a Fault body or a body of the wrong kind", () => {
  const isUpstream = (e: unknown) => e instanceof ToolError && e.code === "UPSTREAM_ERROR";
  assert.throws(
    () => parseIdentifierAnswer(pubchemFixture("metmashr__fault_name_no_hit_cids.json"), URL, "CID"),
    isUpstream,
  );
  assert.throws(() => parseIdentifierAnswer('{"Waiting":{}}', URL, "CID"), isUpstream);
  assert.throws(() => parseIdentifierAnswer('{"Waiting":{"ListKey":"../../x"}}', URL, "CID"), isUpstream);
  assert.throws(() => parseIdentifierAnswer("[1,2]", URL, "CID"), isUpstream);
  assert.throws(() => parseIdentifierAnswer('{"IdentifierList":{"AID":"884"}}', URL, "AID"), isUpstream);
  assert.throws(() => parseIdentifierAnswer('{"IdentifierList":{"AID":[884,{"x":1}]}}', URL, "AID"), isUpstream);
  assert.deepEqual(parseIdentifierAnswer('{"IdentifierList":{"AID":[884,"1851"]}}', URL, "AID"), {
    kind: "ids",
    ids: [884, 1851],
  });
});
