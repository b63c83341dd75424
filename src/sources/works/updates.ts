/**
 * Notices that update a published work, the same shape from every source: Crossref's `updated-by`
 * relations and PubMed's `CommentsCorrections` links (ErratumIn, ExpressionOfConcernIn, RetractionIn…).
 * A correction or an expression of concern does not withdraw a work, but a reader citing it must know.
 */

export interface WorkUpdate {
  /** `correction`, `expression_of_concern`, `retraction`, `partial_retraction`, `withdrawal`, `update`, … */
  type: string;
  /** The notice: `PMID:35767954` or `doi:10.1016/…`, ready for fetchArticleDetails or export_citations. */
  id?: string;
  /** YYYY-MM-DD (or shorter): when the notice appeared. */
  date?: string;
  /** Who says so. */
  source: "Crossref" | "PubMed";
}

/** Crossref update types → one vocabulary (errata and corrigenda are corrections). */
const CROSSREF_TYPES: Record<string, string> = {
  erratum: "correction",
  corrigendum: "correction",
  correction: "correction",
  "expression-of-concern": "expression_of_concern",
  "partial-retraction": "partial_retraction",
};

/** PubMed `CommentsCorrections@RefType`s that point at a notice about this record. */
export const PUBMED_UPDATE_TYPES: Record<string, string> = {
  ErratumIn: "correction",
  ExpressionOfConcernIn: "expression_of_concern",
  RetractionIn: "retraction",
  PartialRetractionIn: "partial_retraction",
  UpdateIn: "update",
  CorrectedandRepublishedIn: "corrected_and_republished",
  RetractedandRepublishedIn: "retracted_and_republished",
  RepublishedIn: "republished",
};

export function crossrefUpdateType(type: string): string {
  const t = type.toLowerCase();
  return CROSSREF_TYPES[t] ?? t.replace(/-/g, "_");
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * The date in a PubMed `RefSource` ("Cell Rep. 2022 Jun 28;39(13):111044. doi: …") as YYYY-MM-DD, YYYY-MM
 * or YYYY; undefined when it names none.
 */
export function refSourceDate(refSource: string | undefined): string | undefined {
  const m = /\b((?:19|20)\d{2})(?: ([A-Z][a-z]{2})(?: (\d{1,2}))?)?[;:.,\s]/.exec(`${refSource ?? ""} `);
  if (!m) return undefined;
  const month = m[2] ? MONTHS.indexOf(m[2]) + 1 : 0;
  if (!month) return m[1];
  const mm = String(month).padStart(2, "0");
  return m[3] ? `${m[1]}-${mm}-${m[3].padStart(2, "0")}` : `${m[1]}-${mm}`;
}

/** Updates of several sources, one per notice (the first source's kept). */
export function mergeUpdates(...lists: (readonly WorkUpdate[] | undefined)[]): WorkUpdate[] {
  const out: WorkUpdate[] = [];
  for (const u of lists.flatMap((l) => l ?? [])) {
    const same = out.some((o) => o.type === u.type && (o.id ?? "").toLowerCase() === (u.id ?? "").toLowerCase());
    if (!same) out.push(u);
  }
  return out;
}

/** `correction PMID:35767954 (2022-06-28, PubMed)`: how a text block names an update. */
export function updateLine(u: WorkUpdate): string {
  const about = [u.date, u.source].filter(Boolean).join(", ");
  return `${u.type.replace(/_/g, " ")}${u.id ? ` ${u.id}` : ""} (${about})`;
}
