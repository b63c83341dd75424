/** render_pdf_page over MCP: a PNG block within the caps, the page's text and captions, and every refusal. */
import assert from "node:assert/strict";
import { ToolError } from "../../../src/core/errors.ts";
import { PdfExtractionError } from "../../../src/sources/pdf/types.ts";
import { captions, refusal } from "../../../src/tools/pdf/render_pdf_page.ts";
import { type CallResult, withTools } from "../../helpers/tool_harness.ts";

const data = (r: CallResult) => r.structuredContent as Record<string, unknown>;
const text = (r: CallResult) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("");
const errorOf = (r: CallResult) => data(r).error as { code: string; message: string };

async function withPdfs(body: (call: (args: Record<string, unknown>) => Promise<CallResult>) => Promise<void>) {
  const library = await Deno.makeTempDir({ prefix: "render-test-" });
  try {
    await Deno.copyFile(
      new URL("../../../fixtures/arxiv/pdf/arxivpy__1111.2011v2.pdf", import.meta.url),
      `${library}/arxiv-1111.2011.pdf`,
    );
    const env = {
      SCIENCE_MCP_TOOLSETS: "pdf",
      LIBRARY_DIR: library,
      PDF_ROOT: new URL("../../../files", import.meta.url).pathname,
    };
    await withTools({ env }, (h) => body((args) => h.call("render_pdf_page", args)));
  } finally {
    await Deno.remove(library, { recursive: true });
  }
}

Deno.test("render_pdf_page draws a library page as a PNG block with its text and the captions on it", async () => {
  await withPdfs(async (call) => {
    const page = await call({ pdf_name: "arxiv-1111.2011", page: 3, max_side: 900 });
    assert.equal(page.isError, undefined, text(page));
    const image = page.content.find((c) => c.type === "image") as unknown as { data: string; mimeType: string };
    const png = Uint8Array.fromBase64(image.data);
    assert.equal(png.length, (data(page).image as { bytes: number }).bytes);
    const { width, height } = data(page).image as { width: number; height: number };
    assert.equal(Math.max(width, height), 900);
    assert.deepEqual(data(page).captions, [
      "FIG. 1. Schematic depiction of the self-consistent calculation of the effective action (11). (a) We begin with a set of nodes on a Bethe lattice, where each node describes a d-dimensional system and is coupled to a large number of nearest neigh- bors. (b) It is assumed—to be verified self-consisten…",
    ]);
    assert.match(text(page), /^## arxiv-1111\.2011\.pdf, page 3 of 8\n/);
    assert.match(text(page), /captions on this page:\n- FIG\. 1\. Schematic depiction/);
    assert.match(text(page), /next page: call render_pdf_page with \{"pdf_name":"arxiv-1111\.2011","page":4\}/);

    const region = await call({ pdf_name: "arxiv-1111.2011", page: 3, region: [0.5, 0, 1, 0.25], max_side: 400 });
    const box = data(region).image as { width: number; height: number };
    assert.equal(box.width, 400, "a quarter-height strip of the right column is wider than tall");
    assert.ok(box.height < 400);

    const sample = await call({ pdf_name: "dvt_prophylaxis_review", page: 1, max_side: 300 });
    assert.equal(sample.isError, undefined, "PDF_ROOT pages are drawn too");
  });
});

Deno.test("render_pdf_page refuses oversized requests, pages past the end, unknown and path-like names", async () => {
  await withPdfs(async (call) => {
    const huge = await call({ pdf_name: "arxiv-1111.2011", page: 1, max_side: 4096 });
    assert.equal(errorOf(huge).code, "INVALID_INPUT", "more than 2048 px a side is refused");
    const past = await call({ pdf_name: "arxiv-1111.2011", page: 9 });
    assert.equal(errorOf(past).code, "INVALID_INPUT");
    assert.match(errorOf(past).message, /8 pages only/);
    const region = await call({ pdf_name: "arxiv-1111.2011", region: [0.5, 0, 0.2, 1] });
    assert.equal(errorOf(region).code, "INVALID_INPUT");
    assert.equal(errorOf(await call({ pdf_name: "no-such-paper" })).code, "ENTITY_NOT_FOUND");
    assert.equal(errorOf(await call({ pdf_name: "../files/dvt_prophylaxis_review" })).code, "INVALID_INPUT");
  });
});

Deno.test("a PNG over 2 MB is PAYLOAD_TOO_LARGE, naming the way to ask for less", () => {
  const error = refusal(
    new PdfExtractionError("too_large", "The drawn page is 2.4 MB as a PNG, over the limit"),
    "x",
    1,
  );
  assert.ok(error instanceof ToolError);
  assert.equal(error.code, "PAYLOAD_TOO_LARGE");
  assert.match(error.recoveryHint ?? "", /region or a smaller max_side/);
});

Deno.test("captions: figure and table lines with their continuation, not running text that mentions a figure", () => {
  const page =
    "as shown in Figure 2 the\nresult holds.\n\nTable 1: Baseline characteristics\nof the cohort.\n\nText after.\n" +
    "Fig. 3. Survival curves.\nSupplementary Figure S2 Raw data";
  assert.deepEqual(captions(page), [
    "Table 1: Baseline characteristics of the cohort.",
    "Fig. 3. Survival curves.",
    "Supplementary Figure S2 Raw data",
  ]);
});
