import assert from "node:assert/strict";
import { countByTarget } from "../../../src/sources/pubchem/target_outcomes.ts";
import type { AssayRow } from "../../../src/sources/pubchem/parse_assaysummary.ts";

const row = (aid: number, outcome: AssayRow["outcome"], target: Partial<AssayRow>): AssayRow => ({
  aid,
  outcome,
  ...target,
});

Deno.test("countByTarget counts each assay once per target, with its best outcome over the substances", () => {
  const rows = [
    row(1, "inactive", { targetGeneId: 5742 }),
    row(1, "active", { targetGeneId: 5742 }), // a second substance of AID 1: the assay counts as active
    row(2, "inconclusive", { targetGeneId: 5742 }),
    row(3, "inactive", { targetGeneId: 5743 }),
    row(4, "active", { targetAccession: "P23219" }),
    row(5, "unspecified", { targetAccession: "P23219" }),
    row(6, "active", {}), // no target: not charted, not counted as targeted
  ];
  const summary = countByTarget(rows, 10);
  assert.deepEqual(summary.targets, [
    { geneId: 5742, active: 1, inactive: 0, inconclusive: 1, unspecified: 0, tested: 2 },
    { accession: "P23219", active: 1, inactive: 0, inconclusive: 0, unspecified: 1, tested: 2 },
    { geneId: 5743, active: 0, inactive: 1, inconclusive: 0, unspecified: 0, tested: 1 },
  ]);
  assert.equal(summary.totalTargets, 3);
  assert.equal(summary.targetedAssays, 5);
});

Deno.test("countByTarget keeps the top targets by active, then tested assays", () => {
  const rows = [
    row(1, "inactive", { targetGeneId: 1 }),
    row(2, "inactive", { targetGeneId: 1 }),
    row(3, "active", { targetGeneId: 2 }),
    row(4, "inactive", { targetGeneId: 3 }),
  ];
  const summary = countByTarget(rows, 2);
  assert.deepEqual(summary.targets.map((t) => t.geneId), [2, 1]);
  assert.equal(summary.totalTargets, 3);
});
