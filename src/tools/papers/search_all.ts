/**
 * search_papers source=all: PubMed, Europe PMC, OpenAlex and arXiv asked at once (each through its own pacing),
 * their hits merged into one list without duplicates.
 *
 * Merging: two hits are the same paper when they share a DOI (any case), PMID, PMCID or arXiv id (versions
 * ignored); the merged hit keeps the first source's fields, lists every source that has it (`sources`) and
 * every id any of them gave. Ranking: the sources' own orders interleaved, first hit of each source, then the
 * second of each…, in the order PubMed, Europe PMC, OpenAlex, arXiv; a paper several sources found sits at its
 * best place.
 *
 * Paging: the cursor holds each source's resume position (`p`) and short hashes of every key already shown
 * (`k`), so the next page neither skips a source's hits nor repeats a paper. A hit not reached on this page is
 * not consumed: its source resumes at it. A source that fails is left out with a warning (its position kept);
 * when every source fails the answer is UPSTREAM_ERROR naming each.
 */
import { ToolError } from "../../core/errors.ts";
import type { ToolContext } from "../tool_def.ts";
import type { Paper, Warning } from "./schemas.ts";
import type { SearchPosition, SourcePosition } from "./search_cursor.ts";
import { firstPosition, type SearchSource, type SourcePage, sourcePage, type SourceQuery } from "./search_sources.ts";

/** The sources of a merged search, in the order their hits interleave. */
export const MERGED_SOURCES: readonly SearchSource[] = ["pubmed", "europepmc", "openalex", "arxiv"];
/** Sources that can order by citations. */
const CITATION_SOURCES: readonly SearchSource[] = ["europepmc", "openalex"];
/**
 * Keys remembered in a cursor at most (200 at the default budget, fewer under a smaller one), about the last
 * 70 papers shown (older ones are dropped: a repeat becomes
 * possible only for a paper one source ranks 100 places below another). A cut page prints its cursor three
 * times (next_cursor, the next call, the cut line), all of it within the smallest output budget (2,000).
 */
export const MAX_SEEN_KEYS = 200;
/** Characters of one key hash in the cursor (24 bits: a new paper is mistaken for a shown one once in ~60,000). */
const HASH_CHARS = 4;

const LABEL: Record<SearchSource, string> = {
  pubmed: "PubMed",
  europepmc: "Europe PMC",
  openalex: "OpenAlex",
  arxiv: "arXiv",
};

export interface MergedPage {
  papers: Paper[];
  total: number;
  querySent: string;
  warnings: Warning[];
  /** The position after the first `k` papers of this page (k = 0 … papers.length). */
  positionAfter(kept: number): SearchPosition;
  /** Whether any source has hits after the first `k` papers. */
  more(kept: number): boolean;
}

/** The sources a merged search asks: those that can order by citations for that sort, no arXiv without preprints. */
export function mergedSources(q: Pick<SourceQuery, "sort" | "preprint">): readonly SearchSource[] {
  const sources = q.sort === "citations" ? CITATION_SOURCES : MERGED_SOURCES;
  return q.preprint === false ? sources.filter((s) => s !== "arxiv") : sources;
}

/** One merged page of `count` papers from `start` (`start.p` per source, `start.k` the keys shown before). */
export async function mergedPage(
  q: SourceQuery,
  start: SearchPosition,
  count: number,
  ctx: ToolContext,
): Promise<MergedPage> {
  const sources = mergedSources(q);
  const positions = (s: SearchSource): SourcePosition => start.p?.[s] ?? firstPosition(s);
  const settled = await Promise.allSettled(sources.map((s) => sourcePage(s, q, positions(s), count, ctx)));
  const warnings: Warning[] = [];
  if (q.sort === "citations") {
    warnings.push({
      code: "IgnoredSource",
      message: "PubMed and arXiv cannot order by citations: only Europe PMC and OpenAlex were searched.",
    });
  }
  if (q.filter) {
    warnings.push({
      code: "IgnoredArgument",
      message: "filter applies to OpenAlex only; the other sources ignore it.",
    });
  }
  const pages = new Map<SearchSource, SourcePage>();
  const failures: string[] = [];
  settled.forEach((outcome, i) => {
    const source = sources[i];
    if (outcome.status === "fulfilled") pages.set(source, outcome.value);
    else {
      if (ctx.signal.aborted) throw outcome.reason;
      const why = describeFailure(outcome.reason);
      failures.push(`${LABEL[source]}: ${why}`);
      warnings.push({
        code: "SourceFailed",
        message: `${LABEL[source]} could not be searched (${why}); its hits are missing from this page.`,
      });
    }
  });
  if (pages.size === 0) {
    const hint = settled.map((o) => o.status === "rejected" && o.reason instanceof ToolError ? o.reason : undefined)
      .find((e) => e?.code === "INVALID_INPUT");
    if (hint) throw hint;
    throw new ToolError(
      "UPSTREAM_ERROR",
      `Every source of the merged search failed: ${failures.join("; ")}.`,
      "Retry in a minute, or search one source (source=pubmed, europepmc, openalex or arxiv).",
    );
  }
  const seen = new Set(splitKeys(start.k));
  const asked = sources.filter((s) => pages.has(s));
  const merged = interleave(asked, pages, seen, count, start.t ?? 0);
  const total = [...pages.values()].reduce((sum, p) => sum + p.total, 0);
  const querySent = [...pages].map(([s, p]) => `${s}: ${p.querySent}`).join(" | ");
  const positionAfter = (kept: number): SearchPosition => {
    const { used, turn } = merged.usedBefore[kept];
    const p: Record<string, SourcePosition> = {};
    for (const s of sources) p[s] = pages.has(s) ? pages.get(s)!.after(used.get(s) ?? 0) : positions(s);
    const k = rememberShown(start.k, merged.papers.slice(0, kept).map((m) => m.paper), keyCap(ctx.outputBudget));
    return { o: start.o + kept, p, ...(k ? { k } : {}), ...(turn ? { t: turn } : {}) };
  };
  const more = (kept: number) => {
    if (kept < merged.papers.length) return true;
    const { used } = merged.usedBefore[kept];
    return [...pages].some(([s, page]) => page.more(used.get(s) ?? 0)) || failures.length > 0 && kept > 0;
  };
  return { papers: merged.papers.map((m) => m.paper), total, querySent, warnings, positionAfter, more };
}

interface MergedHit {
  paper: Paper;
  keys: string[];
}

/** Where each source resumes, and which source goes first, when a page keeps k papers. */
interface Resume {
  used: Map<SearchSource, number>;
  turn: number;
}

/**
 * Takes hits in turn from each source (the next of each, from source `turn` on, then round after round),
 * skipping papers shown on earlier pages and merging papers already on this page, until `count` papers are
 * placed. `usedBefore[k]`: hits of each source consumed before the (k+1)th paper was placed and whose turn that
 * was — so a page cut to k papers resumes exactly where the whole page would have gone on.
 */
function interleave(
  sources: SearchSource[],
  pages: Map<SearchSource, SourcePage>,
  seen: Set<string>,
  count: number,
  turn: number,
): { papers: MergedHit[]; usedBefore: Resume[] } {
  const papers: MergedHit[] = [];
  const byKey = new Map<string, MergedHit>();
  const used = new Map<SearchSource, number>();
  const usedBefore: Resume[] = [];
  const steps = sources.length * Math.max(...sources.map((s) => pages.get(s)!.papers.length));
  let next = 0;
  for (let step = 0; step < steps; step++) {
    const at = (turn + step) % sources.length;
    const source = sources[at];
    const rank = used.get(source) ?? 0;
    const hit = pages.get(source)!.papers[rank];
    next = (at + 1) % sources.length;
    if (!hit) continue;
    {
      const keys = paperKeys(hit);
      const earlier = keys.some((k) => seen.has(hashKey(k)));
      const same = keys.map((k) => byKey.get(k)).find((m) => m !== undefined);
      if (!earlier && !same) {
        if (papers.length === count) {
          next = at;
          break;
        }
        usedBefore.push({ used: new Map(used), turn: at });
        const entry: MergedHit = { paper: { ...hit, sources: [source] }, keys: [] };
        papers.push(entry);
        absorb(entry, keys, byKey);
      } else if (same) {
        same.paper = mergeInto(same.paper, hit, source);
        absorb(same, keys, byKey);
      }
      used.set(source, rank + 1);
    }
  }
  usedBefore.push({ used: new Map(used), turn: next });
  return { papers, usedBefore };
}

/** Keys a cursor remembers: more under a larger output budget (a next-page line prints the cursor twice). */
function keyCap(budget: number | undefined): number {
  return Math.max(60, Math.min(MAX_SEEN_KEYS, Math.floor((budget ?? 24_000) / 40)));
}

function absorb(entry: MergedHit, keys: string[], byKey: Map<string, MergedHit>): void {
  for (const k of keys) {
    if (!entry.keys.includes(k)) entry.keys.push(k);
    byKey.set(k, entry);
  }
}

/** The first source's fields, every source listed once, every id any source gave, missing fields filled in. */
function mergeInto(paper: Paper, hit: Paper, source: SearchSource): Paper {
  const sources = [...(paper.sources ?? []), ...(paper.sources?.includes(source) ? [] : [source])];
  const ids = { ...hit.ids, ...paper.ids };
  const out: Paper = { ...paper, sources, ids };
  if (out.cited_by_count === undefined && hit.cited_by_count !== undefined) out.cited_by_count = hit.cited_by_count;
  if (!out.doi && hit.doi) out.doi = hit.doi;
  if (!out.pdf_url && hit.pdf_url) out.pdf_url = hit.pdf_url;
  if (!out.abstract && hit.abstract) out.abstract = hit.abstract;
  if (hit.retracted) out.retracted = true;
  return out;
}

/**
 * The keys that identify a paper across sources: DOI (lower case), PMID, PMCID, arXiv id without version, and the
 * source's own id when it is none of those (an OpenAlex W id, a Europe PMC PPR id).
 * @example paperKeys({ id: "W1", ids: { doi: "10.1/ABC", arxiv: "2101.00001v2" } }) // ["doi:10.1/abc", "arxiv:2101.00001", "id:W1"]
 */
export function paperKeys(p: Pick<Paper, "id" | "ids" | "doi">): string[] {
  const keys: string[] = [];
  const doi = (p.ids?.doi ?? p.doi)?.trim().toLowerCase().replace(/^https?:\/\/(dx\.)?doi\.org\//, "");
  if (doi) keys.push(`doi:${doi}`);
  if (p.ids?.pmid) keys.push(`pmid:${p.ids.pmid.replace(/^pmid:\s*/i, "")}`);
  if (p.ids?.pmcid) keys.push(`pmcid:${p.ids.pmcid.toUpperCase()}`);
  if (p.ids?.arxiv) keys.push(`arxiv:${p.ids.arxiv.toLowerCase().replace(/^arxiv:/, "").replace(/v\d+$/, "")}`);
  keys.push(`id:${p.id}`);
  return keys;
}

/**
 * The keys a shown paper is remembered by: the first of DOI, PMID, arXiv id, PMCID, own id, and the PMID besides a
 * DOI (PubMed summaries of older papers may lack the DOI). A later hit is checked with all its keys.
 */
function rememberedKeys(p: Paper): string[] {
  const keys = paperKeys(p);
  return keys.length > 1 ? keys.filter((k) => !k.startsWith("id:")) : keys;
}

/** The cursor's `k` after `shown` more papers: earlier hashes, then theirs, the newest MAX_SEEN_KEYS kept. */
export function rememberShown(before: unknown, shown: Paper[], cap = MAX_SEEN_KEYS): string | undefined {
  const hashes = [...new Set([...splitKeys(before), ...shown.flatMap(rememberedKeys).map(hashKey)])];
  const k = hashes.slice(-cap).join("");
  return k || undefined;
}

/** A short, stable hash of a key (24-bit FNV-1a folded, as 4 base64url characters) for the cursor. */
export function hashKey(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  const folded = ((h >>> 24) ^ h) & 0xffffff;
  const bytes = [folded >>> 16, (folded >>> 8) & 255, folded & 255];
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

function splitKeys(k: unknown): string[] {
  if (typeof k !== "string") return [];
  const out: string[] = [];
  for (let i = 0; i + HASH_CHARS <= k.length; i += HASH_CHARS) out.push(k.slice(i, i + HASH_CHARS));
  return out;
}

function describeFailure(error: unknown): string {
  if (error instanceof ToolError) return `${error.code}: ${error.message}`.slice(0, 200);
  return String((error as Error)?.message ?? error).slice(0, 200);
}

/** The merge of ready-made source lists (tests): each source's hits in order, `count` papers at most. */
export function interleaveForTest(lists: Partial<Record<SearchSource, Paper[]>>, count: number): Paper[] {
  const sources = MERGED_SOURCES.filter((s) => lists[s]);
  const pages = new Map(sources.map((s) => [s, { papers: lists[s]! } as SourcePage]));
  return interleave(sources, pages, new Set(), count, 0).papers.map((m) => m.paper);
}
