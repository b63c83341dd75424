/**
 * ESpell: PubMed's spelling suggestion for a query (`<CorrectedQuery>`), asked for when a search finds
 * nothing. An empty CorrectedQuery, or one equal to the query, means no suggestion.
 */
import { parseNcbiXml, text } from "../eutils/xml.ts";
import { type Fetched, fetchEutils } from "../eutils/request.ts";
import type { EutilsContext } from "./client.ts";

export function parseESpell(body: string, url: string): string | undefined {
  const doc = parseNcbiXml(body, url) as Record<string, Record<string, unknown>>;
  const corrected = text(doc.eSpellResult?.CorrectedQuery).trim();
  const query = text(doc.eSpellResult?.Query).trim();
  return corrected && corrected.toLowerCase() !== query.toLowerCase() ? corrected : undefined;
}

export async function eSpell(ctx: EutilsContext, term: string): Promise<Fetched<string | undefined>> {
  return await fetchEutils(
    ctx.upstream,
    { path: "/espell.fcgi", params: { db: "pubmed", term }, signal: ctx.signal },
    parseESpell,
  );
}
