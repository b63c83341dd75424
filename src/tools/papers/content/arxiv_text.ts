/**
 * Full text of an arXiv paper, best source first: arXiv's own LaTeXML HTML, then ar5iv's older LaTeXML
 * renderings, then the PDF. Each failed step is recorded in {@link Attempts}; undefined means none worked.
 */
import type { ToolContext } from "../../tool_def.ts";
import { ar5ivRequest, arxivHtmlRequest, arxivPdfRequest } from "../../../sources/arxiv/web.ts";
import { htmlTextJob } from "../../../sources/html/html_to_text.ts";
import { parseBody } from "../../../sources/parse_off_thread.ts";
import type { ServiceRequest } from "../../../upstreams/mod.ts";
import type { Attempts } from "./attempts.ts";
import { looksLikePdf, pdfToText } from "./pdf_text.ts";
import type { ContentFormat } from "./types.ts";

/** Fewer characters than this is an error page or an empty conversion, not a paper. */
export const MIN_PAPER_CHARS = 500;

export interface FoundText {
  text: string;
  format: ContentFormat;
  url: string;
}

export async function arxivText(ctx: ToolContext, id: string, attempts: Attempts): Promise<FoundText | undefined> {
  await ctx.progress(0, 3, `looking for the arXiv HTML of ${id}`);
  const html = await htmlStep(ctx, "arXiv HTML", arxivHtmlRequest(id), attempts, false);
  if (html) return { ...html, format: "html" };
  await ctx.progress(1, 3, `looking for the ar5iv rendering of ${id}`);
  const ar5iv = await htmlStep(ctx, "ar5iv", ar5ivRequest(ctx.config, id), attempts, true);
  if (ar5iv) return { ...ar5iv, format: "ar5iv" };
  await ctx.progress(2, 3, `downloading the PDF of ${id}`);
  const request = arxivPdfRequest(id, ctx.config.pdf.maxBytes);
  try {
    const response = await ctx.upstream.request({ ...request, signal: ctx.signal });
    if (!looksLikePdf(response.body)) {
      attempts.reject("arXiv PDF", response.url, `not a PDF (${response.headers.get("content-type") ?? "no type"})`);
      return undefined;
    }
    return { text: await pdfToText(ctx, response.body, `arXiv ${id}`), format: "pdf", url: response.url };
  } catch (error) {
    attempts.fail("arXiv PDF", ctx.upstream.describe(request), error);
    return undefined;
  }
}

async function htmlStep(
  ctx: ToolContext,
  what: string,
  request: ServiceRequest,
  attempts: Attempts,
  needLatexml: boolean,
): Promise<{ text: string; url: string } | undefined> {
  try {
    const response = await ctx.upstream.request({ ...request, signal: ctx.signal });
    const page = await parseBody(htmlTextJob, response, [], ctx.signal);
    if (needLatexml && !page.latexml) {
      attempts.reject(what, response.url, "no LaTeXML article on the page");
    } else if (page.text.length < MIN_PAPER_CHARS) {
      attempts.reject(what, response.url, `only ${page.text.length} characters of text`);
    } else {
      return { text: page.text, url: response.url };
    }
  } catch (error) {
    attempts.fail(what, ctx.upstream.describe(request), error);
  }
  return undefined;
}
