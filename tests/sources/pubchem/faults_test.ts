import assert from "node:assert/strict";
import { ToolError, UpstreamError } from "../../../src/core/errors.ts";
import { isTimeout, mapPubChemError } from "../../../src/sources/pubchem/faults.ts";
import { pubchemFixture } from "./fakes.ts";

const context = {
  notFound: "No compound 'x'",
  notFoundHint: "Try search_compound_by_identifier.",
  field: "query",
  value: "x",
};

function httpError(status: number, body?: string): UpstreamError {
  return new UpstreamError({ kind: "http", upstream: "pubchem", url: "https://x/", status, message: "http", body });
}

Deno.test("mapPubChemError turns each documented PUG REST fault into its error code", async (t) => {
  await t.step("PUGREST.NotFound → ENTITY_NOT_FOUND with the tool's hint and PubChem's message", () => {
    const e = mapPubChemError(httpError(404, pubchemFixture("metmashr__fault_name_no_hit_cids.json")), context);
    assert.ok(e instanceof ToolError);
    assert.equal(e.code, "ENTITY_NOT_FOUND");
    assert.match(e.message, /No CID found/);
    assert.equal(e.recoveryHint, context.notFoundHint);
  });
  await t.step("PUGREST.BadRequest → INVALID_INPUT naming the field", () => {
    const e = mapPubChemError(httpError(400, pubchemFixture("built__fault_bad_request_smiles.json")), context);
    assert.ok(e instanceof ToolError);
    assert.equal(e.code, "INVALID_INPUT");
    assert.match(e.message, /'query'.*standardize/);
    assert.deepEqual(e.invalidInput, { field: "query", value: "x" });
  });
  await t.step("PUGREST.ServerBusy → RATE_LIMITED", () => {
    const e = mapPubChemError(httpError(503, pubchemFixture("built__fault_server_busy.json")), context);
    assert.ok(e instanceof ToolError);
    assert.equal(e.code, "RATE_LIMITED");
  });
  await t.step("a 503 without a JSON Fault (an HTML page) is still RATE_LIMITED", () => {
    const e = mapPubChemError(httpError(503, "<html>Service Unavailable</html>"), context);
    assert.ok(e instanceof ToolError);
    assert.equal(e.code, "RATE_LIMITED");
  });
  await t.step("PUGREST.Timeout → UPSTREAM_ERROR with a hint to narrow the request", () => {
    const e = mapPubChemError(httpError(504, pubchemFixture("built__fault_timeout.json")), context);
    assert.ok(e instanceof ToolError);
    assert.equal(e.code, "UPSTREAM_ERROR");
    assert.match(e.recoveryHint, /Narrow/);
  });
  await t.step("failures PubChem does not explain are left to the core's mapping", () => {
    const server = httpError(500, "oops");
    assert.equal(mapPubChemError(server, context), server);
    const network = new UpstreamError({ kind: "network", upstream: "pubchem", url: "https://x/", message: "down" });
    assert.equal(mapPubChemError(network, context), network);
  });
});

Deno.test("isTimeout recognises PUGREST.Timeout by status or by fault code", () => {
  assert.equal(isTimeout(httpError(504)), true);
  assert.equal(isTimeout(httpError(500, pubchemFixture("built__fault_timeout.json"))), true);
  assert.equal(isTimeout(httpError(503, pubchemFixture("built__fault_server_busy.json"))), false);
  assert.equal(isTimeout(new Error("x")), false);
});
