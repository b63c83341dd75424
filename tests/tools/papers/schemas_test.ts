import assert from "node:assert/strict";
import { type Paper, partialSuccess, renderPapers } from "../../../src/tools/papers/schemas.ts";

const complete: Paper = { id: "W1", title: "T", authors: ["A"], date: "2024-01-01", pdf_url: null };

Deno.test("partialSuccess fires below 90 % complete records and says why", () => {
  const nine = Array.from({ length: 9 }, (_, i) => ({ ...complete, id: `W${i}` }));
  assert.equal(partialSuccess([...nine, { ...complete, authors: [] }], "OpenAlex"), undefined, "exactly 90 % is fine");
  const warning = partialSuccess(
    [...nine.slice(0, 8), { ...complete, title: null }, { ...complete, date: null }],
    "OpenAlex",
  );
  assert.match(
    warning?.message ?? "",
    /^2 of 10 papers \(20 %\) lack complete metadata \(1 without a title, 1 without a date\)/,
  );
});

Deno.test("partialSuccess counts each kind of gap", () => {
  const papers = [complete, { ...complete, title: null, authors: [] }, { ...complete, date: null }, complete];
  const warning = partialSuccess(papers, "arXiv")!;
  assert.equal(warning.code, "PartialSuccess");
  assert.equal(
    warning.message,
    "2 of 4 papers (50 %) lack complete metadata (1 without authors, 1 without a title, 1 without a date): arXiv has " +
      "no such data for them; they are returned as they are.",
  );
  assert.equal(partialSuccess([], "arXiv"), undefined);
});

Deno.test("renderPapers gives a heading per paper with every author, and the warnings", () => {
  const text = renderPapers({
    papers: [{ ...complete, authors: ["A", "B", "C"], cited_by_count: 7 }],
    total: 10,
    warnings: [{ code: "X", message: "y" }],
  });
  assert.equal(
    text,
    "1 paper of 10.\nwarning X: y\n\n## W1: T\nauthors: A, B, C\ndate: 2024-01-01\ncited_by_count: 7\n\nlast page",
  );
});

Deno.test("a listing shows RETRACTED in the heading and the abstract; ids only where they add to id and doi", () => {
  const text = renderPapers({
    papers: [{
      ...complete,
      doi: "10.1/x",
      ids: { openalex: "W1", doi: "10.1/x", pmid: "123" },
      retracted: true,
      abstract: "We show…",
    }],
  });
  assert.match(text, /\n## W1: RETRACTED — T\n/);
  assert.match(text, /\nids: pmid: 123\n/);
  assert.match(text, /\nretracted: true\n/);
  assert.match(text, /\nabstract: We show…\n\nlast page$/);
});
