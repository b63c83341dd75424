import assert from "node:assert/strict";
import { pmidSchema, unique } from "../../../src/tools/pubmed/pmid.ts";

Deno.test("pmidSchema normalises bare ids, PMID: CURIEs in any case, and integers", () => {
  assert.equal(pmidSchema.parse("31452104"), "31452104");
  assert.equal(pmidSchema.parse("PMID:31452104"), "31452104");
  assert.equal(pmidSchema.parse(" pmid: 0123 "), "123");
  assert.equal(pmidSchema.parse(9997), "9997");
  for (const bad of ["", "PMC123", "10.1037/amp0000904", "12 34", -1, 1.5]) {
    assert.equal(pmidSchema.safeParse(bad).success, false, JSON.stringify(bad));
  }
});

Deno.test("unique keeps the first occurrence's order", () => {
  assert.deepEqual(unique(["3", "1", "3", "2", "1"]), ["3", "1", "2"]);
});
