/**
 * Slices an EFetch PubmedArticleSet into the raw XML of each record, keyed by PMID, without parsing it:
 * full_xml callers get NCBI's bytes as sent.
 */
const RECORD = /<(PubmedArticle|PubmedBookArticle|MedlineCitation)\b[^>]*>[\s\S]*?<\/\1>/g;
const PMID = /<PMID\b[^>]*>\s*(\d+)\s*<\/PMID>/;

export function splitRawRecords(body: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const match of body.matchAll(RECORD)) {
    const pmid = PMID.exec(match[0])?.[1];
    if (pmid && !out.has(pmid)) out.set(pmid, match[0]);
  }
  return out;
}
