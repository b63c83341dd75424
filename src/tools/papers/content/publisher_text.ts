/**
 * Full text from an OpenAlex work's open-access locations on publisher and repository hosts: each
 * location's PDF link, then its landing page, best location first, at most three locations. Every URL
 * goes through the SSRF guard (src/sources/publisher) hop by hop.
 */
import type { ToolContext } from "../../tool_def.ts";
import { htmlTextJob } from "../../../sources/html/html_to_text.ts";
import { parseBody } from "../../../sources/parse_off_thread.ts";
import type { OpenAlexLocation } from "../../../sources/openalex/types.ts";
import { fetchPublisher } from "../../../sources/publisher/fetch.ts";
import { papersDeps } from "../deps.ts";
import type { FoundText } from "./arxiv_text.ts";
import type { Attempts } from "./attempts.ts";
import { looksLikePdf, pdfToText } from "./pdf_text.ts";

/** A publisher page shorter than this is an abstract or landing page, not the article. */
export const MIN_PUBLISHER_HTML_CHARS = 3000;
/** Budget for one link, redirects included. */
export const PUBLISHER_TIMEOUT_MS = 60_000;
const MAX_LOCATIONS = 3;

export async function publisherText(
  ctx: ToolContext,
  locations: OpenAlexLocation[],
  attempts: Attempts,
): Promise<FoundText | undefined> {
  const deps = papersDeps(ctx);
  const options = {
    resolveDns: deps.resolveDns,
    allowLoopback: deps.allowLoopbackPublisher,
    maxBytes: Math.min(ctx.config.pdf.maxBytes, ctx.config.upstreamMaxBytes),
    timeoutMs: PUBLISHER_TIMEOUT_MS,
    accept: "application/pdf,text/html;q=0.9,*/*;q=0.1",
  };
  const seen = new Set<string>();
  for (const location of locations.slice(0, MAX_LOCATIONS)) {
    const links: [string, string | undefined][] = [
      ["publisher PDF", location.pdfUrl],
      ["publisher page", location.landingPageUrl],
    ];
    for (const [what, url] of links) {
      if (!url || seen.has(url)) continue;
      seen.add(url);
      await ctx.progress(seen.size - 1, MAX_LOCATIONS * 2, `fetching ${what} ${url}`);
      try {
        const { response } = await fetchPublisher(ctx, url, options);
        if (looksLikePdf(response.body)) {
          return { text: await pdfToText(ctx, response.body, what), format: "pdf", url: response.url };
        }
        const type = response.headers.get("content-type") ?? "";
        if (!/html|xml/i.test(type)) {
          attempts.reject(what, response.url, `neither PDF nor HTML (${type || "no content type"})`);
          continue;
        }
        const page = await parseBody(htmlTextJob, response, [], ctx.signal);
        if (page.text.length >= MIN_PUBLISHER_HTML_CHARS) return { text: page.text, format: "html", url: response.url };
        attempts.reject(
          what,
          response.url,
          `only ${page.text.length} characters of text (an abstract or landing page)`,
        );
      } catch (error) {
        attempts.fail(what, url, error);
      }
    }
  }
  return undefined;
}
