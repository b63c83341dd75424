import assert from "node:assert/strict";
import {
  ARXIV_CATEGORIES,
  arxivGroups,
  categoriesUnder,
  findArxivCategory,
} from "../../../src/sources/arxiv/taxonomy.ts";
import { ARXIV_CATEGORY_ROWS, ARXIV_GROUP_ROWS } from "../../../src/sources/arxiv/taxonomy_data.ts";
import { fixture } from "../../helpers/runtime.ts";

Deno.test("the shipped taxonomy is exactly arXiv's own tables (fixtures/arxiv/taxonomy)", () => {
  const defs = JSON.parse(fixture("arxiv/taxonomy/arxivbase__arXiv_category_def.json")) as {
    category: string;
    name: string;
    active: number;
  }[];
  const archives = JSON.parse(fixture("arxiv/taxonomy/arxivbase__arXiv_archives.json")) as {
    archive_id: string;
    in_group: string;
  }[];
  const groups = JSON.parse(fixture("arxiv/taxonomy/arxivbase__arXiv_groups.json")) as {
    group_id: string;
    group_name: string;
  }[];
  const groupOf = new Map(archives.map((a) => [a.archive_id, a.in_group]));
  const expected = defs
    .map((d) => [d.category, d.name, groupOf.get(d.category.split(".")[0])!, d.active === 1] as const)
    .filter(([, , group]) => group !== "test");
  assert.deepEqual(ARXIV_CATEGORY_ROWS, expected);
  assert.deepEqual(
    ARXIV_GROUP_ROWS,
    groups.filter((g) => g.group_id !== "test").map((g) => [g.group_id, g.group_name]),
  );
});

Deno.test("taxonomy lookups", async (t) => {
  await t.step("codes are found case-insensitively with name and group", () => {
    const lg = findArxivCategory("cs.lg")!;
    assert.equal(lg.code, "cs.LG");
    assert.equal(lg.name, "Machine Learning");
    assert.equal(lg.groupName, "Computer Science");
    assert.equal(lg.active, true);
    assert.equal(findArxivCategory("quant-ph")?.group, "physics");
  });
  await t.step("retired codes are known but inactive", () => {
    assert.equal(findArxivCategory("cmp-lg")?.active, false);
  });
  await t.step("unknown codes and archive names are not categories", () => {
    assert.equal(findArxivCategory("cs"), undefined);
    assert.equal(findArxivCategory("cs.XX"), undefined);
  });
  await t.step("an archive lists its active categories", () => {
    const cs = categoriesUnder("cs").map((c) => c.code);
    assert.ok(cs.includes("cs.AI") && cs.includes("cs.LG"));
    assert.ok(cs.every((c) => c.startsWith("cs.")));
  });
  await t.step("eight groups, no internal test group, 150+ active categories", () => {
    assert.equal(arxivGroups().length, 8);
    assert.ok(ARXIV_CATEGORIES.every((c) => c.group !== "test"));
    assert.ok(ARXIV_CATEGORIES.filter((c) => c.active).length >= 150);
  });
});
