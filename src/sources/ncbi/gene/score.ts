/**
 * Relevance of a gene to a search query, in [0, 1], from how the query matches the gene's own fields.
 * NCBI's order says nothing about *how well* a gene matches, so agents could not tell "this is the gene"
 * from "this gene mentions your words"; the score does. Tiers, highest that applies wins:
 *
 *   1.00  the symbol equals the query exactly (BRCA1 = BRCA1)
 *   0.95  the symbol equals the query ignoring case (Brca1, the mouse ortholog)
 *   0.85  an alias (other symbol) equals the query ignoring case (P53 → TP53)
 *   0.60 + 0.20 × |query| / |symbol|   the symbol starts with the query (BRCA → BRCA1: 0.76), below 0.80
 *   0.50 × coverage + 0.05 × precision + phrase    word matches, at most 0.59:
 *         coverage = mean over query words of 1 (in the full name, symbol or an alias), 0.8 (only in a
 *         product name), 0.3 (only in the summary) or 0; precision = share of the full name's words that
 *         are query words (a name that says only what was asked ranks first); phrase = 0.04 when a
 *         multi-word query appears verbatim in the full name, 0.02 when only in a product name
 *   0     nothing visible matched (NCBI matched a field we do not see, e.g. a GeneRIF)
 *
 * Field tags (`[sym]`), quotes, parentheses and AND/OR/NOT are ignored for scoring. Ties keep NCBI's order.
 */
import type { GeneSummary } from "./types.ts";

export type Scorable = Pick<GeneSummary, "symbol" | "name" | "aliases" | "designations" | "summary">;

export function scoreGene(query: string, gene: Scorable): number {
  const q = scoringText(query);
  if (!q) return 0;
  const lower = q.toLowerCase();
  const symbol = gene.symbol.trim();
  if (symbol === q) return 1;
  if (symbol.toLowerCase() === lower) return 0.95;
  if (gene.aliases.some((a) => a.toLowerCase() === lower)) return 0.85;
  if (symbol.length > q.length && q.length >= 2 && symbol.toLowerCase().startsWith(lower)) {
    return round(0.6 + 0.2 * q.length / symbol.length);
  }
  return round(wordScore(lower, gene));
}

/** Sorts by score, highest first; equal scores keep their input (NCBI) order. */
export function rankByScore<T extends { score: number }>(items: T[]): T[] {
  return items.map((item, index) => ({ item, index }))
    .sort((a, b) => b.item.score - a.item.score || a.index - b.index)
    .map((x) => x.item);
}

/** The query as words: Entrez field tags, quotes, brackets and boolean operators removed. */
export function scoringText(query: string): string {
  return query.replace(/\[[^\]]*\]/g, " ").replace(/["()]/g, " ").replace(/\b(AND|OR|NOT)\b/g, " ")
    .replace(/\s+/g, " ").trim();
}

function wordScore(lowerQuery: string, gene: Scorable): number {
  const tokens = words(lowerQuery);
  if (tokens.length === 0) return 0;
  const nameWords = words(gene.name.toLowerCase());
  const own = new Set([...nameWords, ...words([gene.symbol, ...gene.aliases].join(" ").toLowerCase())]);
  const products = new Set(words(gene.designations.join(" ").toLowerCase()));
  const summary = new Set(words(gene.summary.toLowerCase()));
  const weight = (t: string) => own.has(t) ? 1 : products.has(t) ? 0.8 : summary.has(t) ? 0.3 : 0;
  const coverage = tokens.reduce((sum, t) => sum + weight(t), 0) / tokens.length;
  const asked = new Set(tokens);
  const precision = nameWords.length ? nameWords.filter((w) => asked.has(w)).length / nameWords.length : 0;
  const multi = tokens.length > 1;
  const phrase = multi && gene.name.toLowerCase().includes(lowerQuery)
    ? 0.04
    : multi && gene.designations.some((d) => d.toLowerCase().includes(lowerQuery))
    ? 0.02
    : 0;
  return 0.5 * coverage + 0.05 * precision + phrase;
}

/** Lower-case words with a plural "s" dropped, so "suppressors" matches "suppressor". */
function words(text: string): string[] {
  return text.split(/[^a-z0-9]+/).filter(Boolean).map((w) => w.length > 3 && w.endsWith("s") ? w.slice(0, -1) : w);
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
