import assert from "node:assert/strict";
import { findSection, outline, shownOutline } from "../../../src/tools/papers/content/outline.ts";

const TEXT =
  "# Title\n\n## Abstract\n\nA.\n\n## 1. Methods\n\n### Cohort\n\nB.\n\n### Assays\n\nC.\n\n## Results\n\nD.";

Deno.test("outline lists level-2 and level-3 headings; a section runs to the next heading of its level or above", () => {
  const entries = outline(TEXT);
  assert.deepEqual(entries.map((e) => [e.n, e.level, e.heading]), [
    [1, 2, "Abstract"],
    [2, 2, "1. Methods"],
    [3, 3, "Cohort"],
    [4, 3, "Assays"],
    [5, 2, "Results"],
  ]);
  const methods = entries[1];
  assert.equal(
    TEXT.slice(methods.offset, methods.offset + methods.chars),
    "## 1. Methods\n\n### Cohort\n\nB.\n\n### Assays\n\nC.\n\n",
  );
  const last = entries[4];
  assert.equal(last.offset + last.chars, TEXT.length);
  assert.deepEqual(outline("plain PDF text without headings"), []);
});

Deno.test("findSection takes a number, a heading in any case, or the one heading it begins", () => {
  const entries = outline(TEXT);
  assert.equal(findSection(entries, "5")?.heading, "Results");
  assert.equal(findSection(entries, "RESULTS")?.n, 5);
  assert.equal(findSection(entries, "methods")?.n, 2, "section numbers are skipped when matching a beginning");
  assert.equal(findSection(entries, "A"), undefined, "Abstract and Assays both begin with A: ambiguous");
  assert.equal(findSection(entries, "9"), undefined);
});

Deno.test("a long outline shows the top-level sections only, numbered as in the full outline", () => {
  const text = Array.from({ length: 20 }, (_, i) => `## S${i}\n\n### a\n\nx\n\n`).join("");
  const shown = shownOutline(outline(text));
  assert.equal(shown.length, 20);
  assert.ok(shown.every((e) => e.level === 2));
  assert.deepEqual(shown.slice(0, 2).map((e) => e.n), [1, 3]);
  assert.equal(shownOutline(outline(TEXT)).length, 5);
});
