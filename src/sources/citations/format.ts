/**
 * The citation formats getArticleRelationships and export_citations produce, by name. BibTeX, RIS and
 * CSL-JSON are written here from the CSL item; every other style is rendered by citeproc-js with the
 * official CSL style (./engine.ts), on the citation thread (./render_thread.ts), which is loaded the first
 * time a formatted style is asked for.
 */
import { onDemand } from "../../core/on_demand.ts";
import type { CslItem } from "./csl.ts";
import { formatBibtex } from "./bibtex.ts";
import { formatCslJson } from "./csl_json.ts";
import { formatRis } from "./ris.ts";

/** getArticleRelationships' `citationStyles` (a seed contract: these four, in this order). */
export const CITATION_STYLES = ["ris", "bibtex", "apa_string", "mla_string"] as const;
/** Every style export_citations offers: the four above, CSL-JSON, Vancouver, then further CSL styles. */
export const EXPORT_STYLES = [
  ...CITATION_STYLES,
  "csl_json",
  "vancouver_string",
  "chicago_author_date_string",
  "ieee_string",
  "nature_string",
  "harvard_string",
  "ama_string",
] as const;
export type ExportStyle = typeof EXPORT_STYLES[number];
export type CitationStyle = typeof CITATION_STYLES[number];

/** The official style each formatted value is rendered with (docs and descriptions name them). */
export const STYLE_NAMES: Record<Exclude<ExportStyle, "ris" | "bibtex" | "csl_json">, string> = {
  apa_string: "APA 7th edition",
  mla_string: "MLA 9th edition",
  vancouver_string: "NLM/Vancouver (Citing Medicine)",
  chicago_author_date_string: "Chicago 18th edition author-date",
  ieee_string: "IEEE",
  nature_string: "Nature",
  harvard_string: "Harvard (Cite Them Right)",
  ama_string: "AMA 11th edition",
};

const WRITERS = { ris: formatRis, bibtex: formatBibtex, csl_json: formatCslJson } as const;

type RenderThread = typeof import("./render_thread.ts");

/** `item` in each of `styles`, in that order; `signal` cancels a formatted style still being rendered. */
export async function formatCitations<S extends ExportStyle>(
  item: CslItem,
  styles: readonly S[],
  signal?: AbortSignal,
): Promise<Partial<Record<S, string>>> {
  const out: Partial<Record<S, string>> = {};
  for (const style of styles) {
    if (style in WRITERS) out[style] = WRITERS[style as keyof typeof WRITERS](item);
    else {
      const { renderReference } = await onDemand<RenderThread>("sources/citations/render_thread.ts");
      out[style] = await renderReference(item, style as Exclude<S, keyof typeof WRITERS>, signal);
    }
  }
  return out;
}
