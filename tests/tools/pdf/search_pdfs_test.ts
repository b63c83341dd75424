import assert from "node:assert/strict";
import { searchPdfs } from "../../../src/tools/pdf/search_pdfs.ts";
import { everyPageLoops, secondPageLoops } from "../../sources/pdf/damaged_pdfs.ts";
import { FILES_DIR, FIXTURES_PDF, pdfClient } from "./pdf_client.ts";

interface Found {
  query_exists: boolean;
  total_matches: number;
  files_searched: number;
  files: {
    pdf_name: string;
    page_count: number;
    total_matches: number;
    passages: { page: number; offset: number; offsets: number[]; text: string }[];
    warning?: string;
  }[];
  not_searched: { pdf_name: string; error: string }[];
  mode?: string;
  words?: string[];
  truncated: boolean;
  next_cursor?: string;
  next?: { tool: string; arguments: Record<string, unknown> };
  hint?: string;
}

/** A folder of two papers, a damaged copy, a locked PDF and one no page of which can be read. */
async function folder(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "pdf_search_all_" });
  await Deno.copyFile(`${FILES_DIR}/dvt_prophylaxis_review.pdf`, `${root}/dvt.pdf`);
  await Deno.copyFile(`${FIXTURES_PDF}/scienceparse__map-reduce.pdf`, `${root}/mapreduce.pdf`);
  await Deno.copyFile(`${FIXTURES_PDF}/pypdf__libreoffice-writer-password.pdf`, `${root}/locked.pdf`);
  await Deno.writeFile(`${root}/columns.pdf`, secondPageLoops());
  await Deno.writeFile(`${root}/hopeless.pdf`, everyPageLoops());
  return root;
}

Deno.test("search_pdfs searches every PDF in one call: counts, ranked files, passages, what was not searched", async (t) => {
  const root = await folder();
  const pdf = await pdfClient(root);
  const call = async (args: Record<string, unknown>) => {
    const result = await pdf.client.callTool({ name: "search_pdfs", arguments: args });
    return {
      found: result.structuredContent as unknown as Found,
      text: (result.content as { text: string }[])[0].text,
    };
  };
  try {
    await t.step("counts per file agree with search_pdf on each file", async () => {
      const { found } = await call({ query: "the", per_file: 2, context_length: 60 });
      assert.equal(found.files_searched, 3);
      for (const f of found.files) {
        const one = await pdf.search({ pdf_name: f.pdf_name, query: "the", topk: 2, context_length: 60 });
        assert.equal(f.total_matches, one.total_matches, f.pdf_name);
        assert.deepEqual(f.passages.map((p) => p.text), one.matches);
        assert.deepEqual(
          f.passages.map((p) => ({ page: p.page, offset: p.offset, offsets: p.offsets })),
          one.match_details,
        );
      }
      const counts = found.files.map((f) => f.total_matches);
      assert.deepEqual(counts, [...counts].sort((a, b) => b - a), "most matches first");
      assert.equal(found.total_matches, counts.reduce((a, b) => a + b, 0));
    });
    await t.step("only files with a match are listed; unreadable ones are named with their reason", async () => {
      const { found } = await call({ query: "heparin" });
      assert.deepEqual(found.files.map((f) => [f.pdf_name, f.total_matches]), [["dvt", 34]]);
      assert.equal(found.files[0].passages.length, 3);
      for (const p of found.files[0].passages) {
        assert.ok(p.offsets.length > 1 || p.text.length <= 300, "a lone hit's passage keeps context_length");
        assert.equal(p.text.split("**heparin").length - 1, p.offsets.length, "every hit listed is marked");
      }
      assert.deepEqual(found.not_searched.map((n) => n.pdf_name), ["hopeless", "locked"]);
      assert.match(found.not_searched[1].error, /password-protected/);
    });
    await t.step("a damaged PDF is searched on its readable pages, with the warning", async () => {
      const { found } = await call({ query: "chlorophyll" });
      assert.equal(found.files[0].pdf_name, "columns");
      assert.match(found.files[0].warning ?? "", /page 2: the page tree is circular/);
    });
    await t.step("the text block carries counts, every passage with its page, and what was not searched", async () => {
      const { found, text } = await call({ query: "heparin", per_file: 2 });
      assert.match(
        text,
        /^## 34 hits in 1 PDF; 3 PDFs searched \(phrase mode\)\n\n⟦\n### dvt\.pdf — 34 hits, 4 pages\n- p\. 1 \(offsets 779, 996, 1025\): /,
      );
      for (const p of found.files[0].passages) {
        assert.ok(text.includes(`- p. ${p.page} (offset${p.offsets.length > 1 ? "s" : ""} ${p.offsets.join(", ")}): `));
      }
      assert.match(
        text,
        /### Not searched\n- hopeless\.pdf: .*circular.*\n- locked\.pdf: The PDF is password-protected/,
      );
    });
    await t.step("a query with no match anywhere says what to try next", async () => {
      const { found, text } = await call({ query: "quantum chromodynamics" });
      assert.equal(found.query_exists, false);
      assert.deepEqual(found.files, []);
      assert.match(found.hint ?? "", /^None of the words quantum, chromodynamics occur\. Try other words/);
      assert.ok(text.includes(`hint: ${found.hint}`));
    });
    await t.step("bad input is INVALID_INPUT naming the field", async () => {
      for (
        const [args, field] of [[{ query: " \u200B" }, "query"], [{ query: "x", per_file: 0 }, "per_file"]] as const
      ) {
        const result = await pdf.client.callTool({ name: "search_pdfs", arguments: args });
        assert.equal(result.isError, true);
        assert.match(JSON.stringify(result.structuredContent), new RegExp(`INVALID_INPUT.*'${field}'`));
      }
    });
  } finally {
    await pdf.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("search_pdfs's examples run against the sample paper shipped in files/", async () => {
  const pdf = await pdfClient(FILES_DIR);
  try {
    for (const example of searchPdfs.examples) {
      const result = await pdf.client.callTool({ name: "search_pdfs", arguments: example });
      const found = result.structuredContent as unknown as Found;
      assert.equal(found.query_exists, true, JSON.stringify(example));
      assert.equal(found.files[0].pdf_name, "dvt_prophylaxis_review");
    }
  } finally {
    await pdf.close();
  }
});
