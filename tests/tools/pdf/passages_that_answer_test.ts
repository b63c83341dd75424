/**
 * PDF passages that answer the question (#34), on real papers through search_pdf:
 * - words mode: reference titles pack a question's words, so reference entries once ranked first; now the
 *   best passage lies outside the paper's reference list (four papers with one), and reference passages
 *   come after every body passage;
 * - seed 002: each string of `matches` is at most context_length plus its highlight marks, clustered hits
 *   share one window listing every offset, topk caps the windows, and a phrase keeps document order.
 */
import assert from "node:assert/strict";
import { referenceSection } from "../../../src/sources/pdf/reference_section.ts";
import { FILES_DIR, FIXTURES_PDF, pdfClient, type SearchResult } from "./pdf_client.ts";

/** Papers with a reference list, and a question whose words crowd into reference titles. */
const PAPERS = [
  {
    root: FILES_DIR,
    name: "dvt_prophylaxis_review",
    question: "What is the recommended heparin dose for DVT prophylaxis in trauma patients?",
  },
  {
    root: FIXTURES_PDF,
    name: "scienceparse__map-reduce",
    question: "high-performance sorting on networks of workstations",
  },
  {
    root: FIXTURES_PDF,
    name: "scienceparse__superscripttest",
    question: "which influential nodes spread information diffusion in social networks",
  },
  {
    root: FIXTURES_PDF,
    name: "cermine__bmc_research_article",
    question: "quality improvement in low resource hospitals",
  },
];

/** The document's text as search_pdf's offsets count it (the pdf://files/{name} resource). */
async function documentText(pdf: Awaited<ReturnType<typeof pdfClient>>, name: string): Promise<string> {
  const read = await pdf.client.readResource({ uri: `pdf://files/${name}` }, { timeout: 300_000 });
  return (read.contents[0] as { text: string }).text;
}

for (const paper of PAPERS) {
  Deno.test(`words mode ranks ${paper.name}'s reference list below its body text`, async () => {
    const pdf = await pdfClient(paper.root);
    try {
      const text = await documentText(pdf, paper.name);
      const section = referenceSection(text);
      assert.ok(section, "the paper's reference list is found");
      assert.match(text.slice(section[0], section[0] + 40), /^\s*References\s*\n/i);
      // Every passage, best first, page after page.
      const pages: SearchResult[] = [];
      let args: Record<string, unknown> | undefined = {
        pdf_name: paper.name,
        query: paper.question,
        context_length: 400,
      };
      while (args) {
        const page: SearchResult = await pdf.search(args);
        pages.push(page);
        args = page.next?.arguments;
      }
      assert.equal(pages[0].mode, "words");
      const details = pages.flatMap((p) => p.match_details);
      assert.equal(details.length, pages[0].total_passages);
      const inReferences = details.map((d) => d.offset >= section[0] && d.offset < section[1]);
      assert.equal(
        inReferences[0],
        false,
        `best passage at ${details[0].offset}: ${pages[0].matches[0].slice(0, 200)}`,
      );
      const first = inReferences.indexOf(true);
      assert.ok(first > 0, "the question's words occur in the reference list too (the case this guards)");
      assert.ok(inReferences.slice(first).every(Boolean), "no body passage ranks below a reference entry");
    } finally {
      await pdf.close();
    }
  });
}

Deno.test("seed 002: each match is at most context_length plus marks; clustered hits share a window", async () => {
  const pdf = await pdfClient(FILES_DIR);
  try {
    const all = await pdf.search({ pdf_name: "dvt_prophylaxis_review", query: "heparin", topk: 100 });
    assert.equal(all.mode, "phrase");
    assert.equal(all.total_matches, 34);
    const offsets = all.match_details.flatMap((d) => d.offsets);
    assert.equal(offsets.length, 34, "every hit in exactly one window");
    assert.deepEqual(offsets, [...offsets].sort((a, b) => a - b), "a phrase keeps document order");
    assert.ok(all.match_details.some((d) => d.offsets.length > 1), "clustered hits share a window");
    all.matches.forEach((m, i) => {
      const marks = 4 * all.match_details[i].offsets.length;
      assert.ok(m.length <= 2000 + marks, `match ${i} is ${m.length} characters with ${marks} of marks`);
      assert.equal((m.match(/\*\*/g) ?? []).length / 2, all.match_details[i].offsets.length);
    });
    const three = await pdf.search({ pdf_name: "dvt_prophylaxis_review", query: "heparin", topk: 3 });
    assert.equal(three.matches.length, 3);
    assert.deepEqual(three.matches, all.matches.slice(0, 3), "topk:3 is the first three windows");
    assert.ok(three.matches.join("").length < all.matches.join("").length, "topk:3 returns less than topk:100");
  } finally {
    await pdf.close();
  }
});

Deno.test("search_pdfs ranks the same way: the best passage of a paper is body text", async () => {
  const pdf = await pdfClient(FILES_DIR);
  try {
    const text = await documentText(pdf, "dvt_prophylaxis_review");
    const [references] = referenceSection(text)!;
    const result = await pdf.client.callTool({
      name: "search_pdfs",
      arguments: { query: PAPERS[0].question, context_length: 300, per_file: 3 },
    }, { timeout: 300_000 });
    const files = (result.structuredContent as { files: { passages: { offset: number }[] }[] }).files;
    assert.ok(files[0].passages[0].offset < references, `best passage at ${files[0].passages[0].offset}`);
  } finally {
    await pdf.close();
  }
});
