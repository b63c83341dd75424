/** Markdown text blocks for paper lists: a heading per paper, then `key: value` lines. */
import type { Paper, Warning } from "./schemas.ts";

/** Authors shown in a text block; the structured result keeps every one. */
const SHOWN_AUTHORS = 10;

/**
 * @example paperMarkdown({ id: "W1", title: "T", authors: ["A"], date: "2020-01-01", pdf_url: null }, 1)
 *   // "## 1. T\nid: W1\ndate: 2020-01-01\nauthors: A"
 */
export function paperMarkdown(p: Paper, n: number): string {
  const extra = p.authors.length - SHOWN_AUTHORS;
  const authors = p.authors.slice(0, SHOWN_AUTHORS).join("; ") + (extra > 0 ? `; +${extra} more` : "");
  return [
    `## ${n}. ${p.retracted && !/^retracted\b/i.test(p.title ?? "") ? "RETRACTED: " : ""}${p.title ?? "(untitled)"}`,
    `id: ${p.id}`,
    ...(p.retracted ? [`retracted: true${p.retraction_notice ? ` (notice ${p.retraction_notice})` : ""}`] : []),
    ...(p.preprint ? ["preprint: true (not peer-reviewed)"] : []),
    `date: ${p.date ?? "unknown"}`,
    `authors: ${authors || "none listed"}`,
    ...(p.cited_by_count === undefined ? [] : [`cited_by_count: ${p.cited_by_count}`]),
    ...(p.pdf_url ? [`pdf_url: ${p.pdf_url}`] : []),
    ...(p.venue ? [`venue: ${p.venue}`] : []),
    ...(p.doi ? [`doi: ${p.doi}`] : []),
    ...(p.ids ? [`ids: ${Object.entries(p.ids).map(([k, v]) => `${k} ${v}`).join(", ")}`] : []),
    ...(p.abstract ? [`abstract: ${p.abstract}`] : []),
  ].join("\n");
}

export function warningLines(warnings: Warning[] | undefined): string[] {
  return (warnings ?? []).map((w) => `- warning ${w.code}: ${w.message}`);
}
