/**
 * CSL-JSON (the Citation Style Language's item format, read by Zotero, Pandoc and citeproc): the item the
 * styles are rendered from, as a JSON string, with the record's ids (DOI, PMID, PMCID) so a reference
 * manager can match it.
 */
import type { CslItem } from "./csl.ts";

export function formatCslJson(item: CslItem): string {
  return JSON.stringify(item);
}
