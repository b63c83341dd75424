import assert from "node:assert/strict";
import { listPdfs } from "../../../src/tools/pdf/list_pdfs.ts";
import { tinyPdf } from "../../sources/pdf/tiny_pdf.ts";
import { FILES_DIR, FIXTURES_PDF, pdfClient } from "./pdf_client.ts";

interface Listing {
  pdfs: { name: string; size_bytes: number; page_count: number | null; uri: string; error?: string }[];
  total: number;
  first?: number;
  truncated: boolean;
  next_cursor?: string;
  next?: { tool: string; arguments: Record<string, unknown> };
}

async function folder(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "pdf_list_" });
  await Deno.copyFile(`${FILES_DIR}/dvt_prophylaxis_review.pdf`, `${root}/my paper.pdf`);
  await Deno.copyFile(`${FIXTURES_PDF}/pypdf__multicolumn.pdf`, `${root}/columns.pdf`);
  await Deno.copyFile(`${FIXTURES_PDF}/pypdf__libreoffice-writer-password.pdf`, `${root}/locked.pdf`);
  await Deno.writeTextFile(`${root}/notes.txt`, "not a PDF");
  await Deno.mkdir(`${root}/sub`);
  await Deno.copyFile(`${FIXTURES_PDF}/pypdf__multicolumn.pdf`, `${root}/sub/nested.pdf`);
  return root;
}

Deno.test("list_pdfs and the pdf:// resources describe the PDFs of PDF_ROOT", async (t) => {
  const root = await folder();
  const pdf = await pdfClient(root);
  try {
    await t.step("list_pdfs lists the PDFs at the top of the folder with pages and sizes", async () => {
      const result = await pdf.client.callTool({ name: "list_pdfs", arguments: {} });
      const listing = result.structuredContent as unknown as Listing;
      assert.deepEqual(listing.pdfs.map((p) => [p.name, p.page_count, p.uri]), [
        ["columns", 3, "pdf://files/columns"],
        ["locked", null, "pdf://files/locked"],
        ["my paper", 4, "pdf://files/my%20paper"],
      ]);
      assert.equal(listing.pdfs[0].size_bytes, 78657);
      assert.match(listing.pdfs[1].error ?? "", /password-protected/);
      assert.equal(listing.total, 3);
      assert.equal(listing.truncated, false);
      const text = (result.content as { text: string }[])[0].text;
      assert.match(
        text,
        /^## 3 PDFs in PDF_ROOT\n⟦\n- columns — 3 pages, 77 KB \(\d+ bytes\), pdf:\/\/files\/columns\n- locked — \? pages, 12 KB \(\d+ bytes\), pdf:\/\/files\/locked\n {2}error: The PDF is password-protected/,
      );
    });

    await t.step("list_pdfs takes no arguments but a cursor", async () => {
      const result = await pdf.client.callTool({ name: "list_pdfs", arguments: { folder: "/" } });
      assert.equal(result.isError, true);
      assert.match(JSON.stringify(result.structuredContent), /INVALID_INPUT.*folder/);
    });

    await t.step("resources/list gives each PDF with its page count and size", async () => {
      const { resources } = await pdf.client.listResources();
      const mine = resources.filter((r) => r.uri.startsWith("pdf://"));
      assert.deepEqual(mine.map((r) => [r.uri, r.name, r.mimeType]), [
        ["pdf://files/columns", "columns", "text/plain"],
        ["pdf://files/locked", "locked", "text/plain"],
        ["pdf://files/my%20paper", "my paper", "text/plain"],
      ]);
      assert.equal(mine[0].description, "PDF, 3 pages, 77 KB");
      assert.match(mine[1].description ?? "", /cannot be read: The PDF is password-protected/);
    });

    await t.step("the template is advertised", async () => {
      const { resourceTemplates } = await pdf.client.listResourceTemplates();
      assert.ok(resourceTemplates.some((r) => r.uriTemplate === "pdf://files/{name}"));
    });

    await t.step("resources/read returns the text whose offsets search_pdf reports", async () => {
      const read = await pdf.client.readResource({ uri: "pdf://files/my%20paper" });
      const content = read.contents[0] as { uri: string; mimeType: string; text: string };
      assert.equal(content.mimeType, "text/plain");
      assert.equal(content.text.split("\f").length, 4);
      const found = await pdf.search({ pdf_name: "my paper", query: '"Heparin-induced thrombocytopenia"', topk: 3 });
      assert.ok(found.total_matches > 0);
      for (const { offset } of found.match_details) {
        assert.equal(content.text.slice(offset, offset + 7).toLowerCase(), "heparin");
      }
    });

    await t.step("resources/read refuses path-like names, missing and unreadable PDFs", async () => {
      await assert.rejects(pdf.client.readResource({ uri: "pdf://files/..%2Fsecret" }), /-32602|pdf_name/);
      await assert.rejects(pdf.client.readResource({ uri: "pdf://files/nope" }), /no PDF named 'nope'/);
      await assert.rejects(pdf.client.readResource({ uri: "pdf://files/locked" }), /password-protected/);
    });
  } finally {
    await pdf.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("list_pdfs's example lists the sample paper shipped in files/", async () => {
  const pdf = await pdfClient(FILES_DIR);
  try {
    const result = await pdf.client.callTool({ name: "list_pdfs", arguments: listPdfs.examples[0] });
    const listing = result.structuredContent as unknown as Listing;
    assert.deepEqual(listing.pdfs.map((p) => [p.name, p.page_count]), [["dvt_prophylaxis_review", 4]]);
  } finally {
    await pdf.close();
  }
});

Deno.test("list_pdfs on a PDF_ROOT that does not exist lists nothing", async () => {
  const pdf = await pdfClient(`${FIXTURES_PDF}/no-such-folder`);
  try {
    const result = await pdf.client.callTool({ name: "list_pdfs", arguments: {} });
    assert.deepEqual(result.structuredContent, { pdfs: [], total: 0, truncated: false });
  } finally {
    await pdf.close();
  }
});

Deno.test("list_pdfs counts every PDF and pages through them with a cursor (files past 500 were omitted)", async () => {
  const root = await Deno.makeTempDir({ prefix: "pdf_list_many_" });
  const names = Array.from({ length: 230 }, (_, i) => `note${String(i).padStart(3, "0")}`);
  for (const name of names) await Deno.writeFile(`${root}/${name}.pdf`, tinyPdf(`Note ${name} of the archive`));
  const pdf = await pdfClient(root);
  try {
    const pages: Listing[] = [];
    let args: Record<string, unknown> | undefined = {};
    while (args) {
      const result = await pdf.client.callTool({ name: "list_pdfs", arguments: args }, { timeout: 300_000 });
      const listing = result.structuredContent as unknown as Listing;
      const text = (result.content as { text: string }[])[0].text;
      assert.equal(listing.total, 230, "every page says how many there are");
      if (listing.next) {
        assert.equal(listing.truncated, true);
        assert.match(text, new RegExp(`^## 230 PDFs in PDF_ROOT \\(${listing.first}–\\d+ here\\)`));
        assert.ok(text.endsWith(`next page: call list_pdfs with {"cursor":"${listing.next_cursor}"}`));
      }
      pages.push(listing);
      args = listing.next?.arguments;
      assert.ok(pages.length <= 10);
    }
    assert.deepEqual(pages.map((p) => p.pdfs.length), [100, 100, 30]);
    assert.deepEqual(pages.map((p) => p.first), [1, 101, 201]);
    assert.deepEqual(pages.flatMap((p) => p.pdfs.map((e) => e.name)), names);
    assert.equal(pages[2].truncated, false);
    const bad = await pdf.client.callTool({ name: "list_pdfs", arguments: { cursor: "nonsense" } });
    assert.equal(bad.isError, true);
    assert.match(JSON.stringify(bad.structuredContent), /INVALID_INPUT.*'cursor'/);
  } finally {
    await pdf.close();
    await Deno.remove(root, { recursive: true });
  }
});
