/** The citation styles getArticleRelationships and export_citations format server-side, by name. */
import type { CitationRecord } from "./record.ts";
import { formatApa } from "./apa.ts";
import { formatCslJson } from "./csl_json.ts";
import { formatVancouver } from "./vancouver.ts";
import { formatBibtex } from "./bibtex.ts";
import { formatMla } from "./mla.ts";
import { formatRis } from "./ris.ts";

export const CITATION_STYLES = ["ris", "bibtex", "apa_string", "mla_string"] as const;
/** Every style export_citations offers: the four above plus CSL-JSON and Vancouver. */
export const EXPORT_STYLES = [...CITATION_STYLES, "csl_json", "vancouver_string"] as const;
export type ExportStyle = typeof EXPORT_STYLES[number];
export type CitationStyle = typeof CITATION_STYLES[number];

const FORMATTERS: Record<ExportStyle, (article: CitationRecord) => string> = {
  ris: formatRis,
  bibtex: formatBibtex,
  apa_string: formatApa,
  mla_string: formatMla,
  csl_json: formatCslJson,
  vancouver_string: formatVancouver,
};

export function formatCitations<S extends ExportStyle>(
  article: CitationRecord,
  styles: readonly S[],
): Partial<Record<S, string>> {
  return Object.fromEntries(styles.map((style) => [style, FORMATTERS[style](article)])) as Partial<Record<S, string>>;
}
