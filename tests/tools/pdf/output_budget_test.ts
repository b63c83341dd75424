/**
 * #21: no combination of arguments makes a PDF tool's text exceed the output budget; what a page cannot
 * hold is one cursor away, every hit is reachable exactly once, and a cut says so.
 */
import assert from "node:assert/strict";
import { DEFAULT_OUTPUT_BUDGET } from "../../../src/tools/pdf/budget.ts";
import { FILES_DIR, FIXTURES_PDF, pdfClient } from "./pdf_client.ts";

interface Page {
  text: string;
  structured: Record<string, unknown> & {
    truncated?: boolean;
    next_cursor?: string;
    next?: { tool: string; arguments: Record<string, unknown> };
  };
  isError?: boolean;
}

async function withClient(root: string, body: (call: (tool: string, args: object) => Promise<Page>) => Promise<void>) {
  const pdf = await pdfClient(root);
  try {
    await body(async (tool, args) => {
      const result = await pdf.client.callTool({ name: tool, arguments: { ...args } }, { timeout: 300_000 });
      return {
        text: (result.content as { text: string }[])[0].text,
        structured: result.structuredContent as Page["structured"],
        isError: result.isError as boolean | undefined,
      };
    });
  } finally {
    await pdf.close();
  }
}

/** Follows next until the last page; every page's text within the budget. */
async function allPages(call: (tool: string, args: object) => Promise<Page>, tool: string, args: object) {
  const pages: Page[] = [];
  let next: Page["structured"]["next"] = { tool, arguments: { ...args } };
  while (next) {
    assert.equal(next.tool, tool);
    const page = await call(next.tool, next.arguments);
    assert.equal(page.isError, undefined, page.text);
    assert.ok(page.text.length <= DEFAULT_OUTPUT_BUDGET, `page ${pages.length + 1}: ${page.text.length} characters`);
    pages.push(page);
    next = page.structured.next;
    if (next) {
      assert.equal(next.arguments.cursor, page.structured.next_cursor);
      assert.ok(page.text.endsWith(`next page: call ${tool} with ${JSON.stringify(next.arguments)}`));
    }
    assert.ok(pages.length < 50, "paging ends");
  }
  return pages;
}

Deno.test("search_pdf at its largest arguments stays within the output budget and pages through every hit", async () => {
  await withClient(FILES_DIR, async (call) => {
    const args = { pdf_name: "dvt_prophylaxis_review", query: "the", topk: 100, context_length: 20000 };
    const pages = await allPages(call, "search_pdf", args);
    const first = pages[0].structured as unknown as {
      total_matches: number;
      total_passages: number;
      matches: string[];
      match_details: { offsets: number[] }[];
    };
    assert.ok(pages.length > 1, "the answer did not fit in one page");
    assert.equal(pages[0].structured.truncated, true, "the budget cut the first page short of topk");
    assert.match(pages[0].text, /\ncut: the output budget ended this page after \d+; the next page continues/);
    const offsets = pages.flatMap((p) =>
      (p.structured.match_details as { offsets: number[] }[]).flatMap((d) => d.offsets)
    );
    assert.equal(offsets.length, first.total_matches, "every hit on exactly one page");
    assert.equal(new Set(offsets).size, offsets.length);
    assert.deepEqual(offsets, [...offsets].sort((a, b) => a - b), "document order across pages");
    const passages = pages.reduce((n, p) => n + (p.structured.matches as string[]).length, 0);
    assert.equal(passages, first.total_passages);
    assert.equal(pages.at(-1)!.structured.next_cursor, undefined);
  });
});

Deno.test("search_pdf pages past topk with a cursor; a cursor from another search is refused", async () => {
  await withClient(FILES_DIR, async (call) => {
    const args = { pdf_name: "dvt_prophylaxis_review", query: "heparin", context_length: 100, topk: 5 };
    const pages = await allPages(call, "search_pdf", args);
    const all = await call("search_pdf", { ...args, topk: 100 });
    const paged = pages.flatMap((p) => p.structured.matches as string[]);
    assert.deepEqual(paged, all.structured.matches, "the pages together are the whole list");
    assert.ok(pages.every((p) => p.structured.truncated === false), "topk, not the budget, ended each page");
    const misuse = await call("search_pdf", { ...args, query: "warfarin", cursor: pages[0].structured.next_cursor });
    assert.equal(misuse.isError, true);
    assert.match(misuse.text, /^Error INVALID_INPUT: Invalid input 'cursor'/);
  });
});

Deno.test("search_pdfs at its maximums stays within the output budget, says it was cut and pages on", async () => {
  const root = await Deno.makeTempDir({ prefix: "pdf_budget_" });
  await Deno.copyFile(`${FILES_DIR}/dvt_prophylaxis_review.pdf`, `${root}/dvt.pdf`);
  await Deno.copyFile(`${FIXTURES_PDF}/scienceparse__map-reduce.pdf`, `${root}/mapreduce.pdf`);
  await Deno.copyFile(`${FIXTURES_PDF}/pypdf__multicolumn.pdf`, `${root}/columns.pdf`);
  try {
    await withClient(root, async (call) => {
      const pages = await allPages(call, "search_pdfs", { query: "the", per_file: 20, context_length: 20000 });
      assert.ok(pages.length > 1);
      assert.equal(pages[0].structured.truncated, true, "was truncated:false with 400,526 characters");
      assert.match(pages[0].text, /\ncut: the output budget ended this page/);
      type Files = { pdf_name: string; passages: { offsets: number[] }[] }[];
      const seen = new Map<string, number[]>();
      for (const page of pages) {
        for (const f of page.structured.files as Files) {
          seen.set(f.pdf_name, [...(seen.get(f.pdf_name) ?? []), ...f.passages.flatMap((p) => p.offsets)]);
        }
      }
      assert.deepEqual([...seen.keys()].sort(), ["dvt", "mapreduce"], 'the Latin filler has no "the"');
      for (const [name, offsets] of seen) assert.equal(new Set(offsets).size, offsets.length, `${name}: no repeats`);
      assert.equal(pages.at(-1)!.structured.truncated, false);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a natural-language query on the sample paper ranks body text first, reference entries last", async () => {
  await withClient(FILES_DIR, async (call) => {
    const { structured, text } = await call("search_pdf", {
      pdf_name: "dvt_prophylaxis_review",
      query: "recommended heparin dose",
    });
    const matches = structured.matches as string[];
    assert.equal(structured.mode, "words");
    assert.deepEqual(structured.words, ["recommended", "heparin", "dose"]);
    // The sampled paper's body never says "dose"; its reference titles do ("low-dose heparin"), and once ranked
    // first (#34). Body passages now come first, reference entries after them.
    const details = structured.match_details as { offset: number }[];
    const references = 8434; // the "References" heading in the extracted text
    const heading = await call("search_pdf", { pdf_name: "dvt_prophylaxis_review", query: "References", topk: 100 });
    const headings = (heading.structured.match_details as { offsets: number[] }[]).flatMap((d) => d.offsets);
    assert.ok(headings.includes(references), `"References" at ${headings}`);
    assert.ok(details[0].offset < references, `best passage at ${details[0].offset}`);
    const firstReference = details.findIndex((d) => d.offset >= references);
    assert.ok(details.slice(firstReference).every((d) => d.offset >= references), "no body passage after a reference");
    assert.match(matches[firstReference] ?? "", /\*\*heparin\*\*/i);
    assert.match(text, /^matches: \d+ hits in \d+ passages \(words mode, ranked by recommended, heparin, dose\)/m);
    const phrase = await call("search_pdf", {
      pdf_name: "dvt_prophylaxis_review",
      query: '"recommended heparin dose"',
    });
    assert.equal(phrase.structured.query_exists, false, "quoted, it is the exact phrase, which is not there");
  });
});
