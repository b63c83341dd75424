/**
 * The fallback of every fetch_content source: when no full text could be had, the metadata and abstract
 * in hand, with an AbstractOnly warning, the list of every source tried and why it failed (`tried`), and
 * where the full text may still be (the DOI link).
 */
import { doiUrl } from "../../../sources/doi_url.ts";
import type { Attempts } from "./attempts.ts";
import type { ContentDoc, ContentMeta } from "./types.ts";

/**
 * @param source Where the metadata and abstract come from ("the PubMed abstract", "the OpenAlex record").
 * @example abstractOnly({ id: "W1", title: "T", authors: [], date: null, url: "u" }, "the OpenAlex record", attempts, "u")
 */
export function abstractOnly(
  meta: ContentMeta,
  source: string,
  attempts: Attempts,
  contentUrl: string,
): ContentDoc {
  const abstract = meta.abstract?.trim();
  const text = [`# ${meta.title ?? "(untitled)"}`, "## Abstract", abstract || `(${source} has no abstract.)`]
    .join("\n\n");
  // Each source and its outcome is listed once, in `tried` (the request URLs there and in the log, #34).
  const tried = attempts.list.length ? "every source tried is listed with its outcome" : "no open-access copy is known";
  const retry = attempts.list.some((a) => a.transient)
    ? " Some sources were busy or failing: retry later for the full text."
    : "";
  return {
    meta,
    text,
    format: "abstract",
    // The abstract's place is the record's landing page; the request that fetched it is in the log (#34).
    contentUrl: meta.url ?? contentUrl,
    warnings: [{
      code: "AbstractOnly",
      message: `No open full text (${tried}): this is ${source}.${retry} The publisher's page may have the full ` +
        (meta.doi ? `text: ${doiUrl(meta.doi)}.` : "text."),
    }],
    ...(attempts.tried() ? { tried: attempts.tried() } : {}),
    ...(attempts.list.some((a) => a.transient) ? { transient: true } : {}),
  };
}
