/** The citation styles getArticleRelationships formats server-side, by name. */
import type { PubMedArticle } from "../../../sources/ncbi/pubmed/types.ts";
import { formatApa } from "./apa.ts";
import { formatBibtex } from "./bibtex.ts";
import { formatMla } from "./mla.ts";
import { formatRis } from "./ris.ts";

export const CITATION_STYLES = ["ris", "bibtex", "apa_string", "mla_string"] as const;
export type CitationStyle = typeof CITATION_STYLES[number];

const FORMATTERS: Record<CitationStyle, (article: PubMedArticle) => string> = {
  ris: formatRis,
  bibtex: formatBibtex,
  apa_string: formatApa,
  mla_string: formatMla,
};

export function formatCitations(
  article: PubMedArticle,
  styles: readonly CitationStyle[],
): Partial<Record<CitationStyle, string>> {
  return Object.fromEntries(styles.map((style) => [style, FORMATTERS[style](article)]));
}
