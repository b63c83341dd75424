/**
 * verify_references: is each reference real, does it say what the record says, and is the work
 * retracted? Each entry is looked up by its identifiers (Crossref, PubMed, OpenAlex) or, without one,
 * by ECitMatch, OpenAlex search and PubMed title search; the best record is scored (match.ts) and its
 * retraction signals read from PubMed, OpenAlex and Crossref.
 */
import { z } from "../../../core/zod.ts";
import { cursorBinding, cursorInput, decodeCursor, encodeCursor } from "../../../core/envelope.ts";
import { type ErrorCode, toErrorEnvelope, ToolError, UpstreamError } from "../../../core/errors.ts";
import { serverLine, textBlock } from "../../../render/markdown.ts";
import { offsetPaging } from "../../../core/envelope.ts";
import { crossrefWork } from "../../../sources/crossref/client.ts";
import { eSearch } from "../../../sources/ncbi/pubmed/client.ts";
import { eCitMatch } from "../../../sources/ncbi/pubmed/ecitmatch.ts";
import { OpenAlexClient } from "../../../sources/openalex/client.ts";
import type { OpenAlexWork } from "../../../sources/openalex/types.ts";
import type { WorkRef } from "../../../sources/works/ids.ts";
import { defineTool, READS_NETWORK, type ToolContext } from "../../tool_def.ts";
import { fromCrossrefWork, fromOpenAlexWork, fromPubMed } from "./candidates.ts";
import { type Candidate, decide, type Decision, mergeCandidates } from "./match.ts";
import { type ParsedReference, parseReferences } from "./parse_references.ts";
import { openalexWork, pubmedArticles } from "./resolve_records.ts";
import { updateLine } from "../../../sources/works/updates.ts";
import { updateSchema } from "../schemas.ts";

const TOOL = "verify_references";
const PAGE = 10;
const SOURCES = ["PubMed", "OpenAlex", "Crossref"];

const input = z.object({
  references: z.array(z.string().min(1).max(20_000)).min(1).max(100).describe(
    "Free text (one per item or line), BibTeX or RIS",
  ),
  cursor: cursorInput(TOOL),
});

const entrySchema = z.object({
  index: z.number().int(),
  reference: z.string(),
  verdict: z.enum(["verified", "mismatch", "ambiguous", "not_found", "unverified", "unreadable"]).describe(
    "not_found: absence proven (see description); unverified: a source that could hold it failed (see failed), " +
      "or ECitMatch matched a PMID whose record could not be read (unreadable_record); unreadable: the " +
      "reference gives no identifier, no title and not author + year + venue (notes say what is missing), " +
      "so nothing was looked up",
  ),
  unreadable_record: z.string().optional().describe(
    "A PMID ECitMatch matched from journal, year, volume and page whose PubMed record could not be read",
  ),
  mismatched: z.array(z.string()).optional().describe(
    "Fields that disagree: title, first_author, year, journal, doi, pmid",
  ),
  confidence: z.number().describe(
    "0-1 match of the record found; same work from 0.75 title similarity, fields agree from 0.95",
  ),
  record: z.object({
    title: z.string().optional(),
    first_author: z.string().optional(),
    year: z.string().optional(),
    journal: z.string().optional(),
    pmid: z.string().optional(),
    doi: z.string().optional(),
    arxiv: z.string().optional(),
    openalex: z.string().optional(),
  }).optional(),
  retracted: z.boolean(),
  retraction: z.string().describe("The notice, or which sources had none"),
  updates: z.array(updateSchema).optional().describe(
    "Notices about the record beside retractions: correction, expression_of_concern, … (Crossref, PubMed)",
  ),
  oa_url: z.string().optional(),
  failed: z.array(z.string()).optional().describe("Lookups that failed and why; the verdict rests on the others"),
  notes: z.array(z.string()).optional(),
});

const output = z.object({
  entries: z.array(entrySchema),
  total_count: z.number().int(),
  next_cursor: z.string().optional(),
});

type Entry = z.infer<typeof entrySchema>;

export const verifyReferences = defineTool({
  name: TOOL,
  title: "Verify references",
  toolset: "papers",
  description: "Checks references against PubMed, Crossref and OpenAlex: verdict, ids, retraction " +
    "notice, corrections, open-access link. Use on any bibliography before relying on it. not_found only " +
    "when absence is proven: a DOI neither Crossref nor OpenAlex has, a PMID PubMed has not, an arXiv/W id " +
    "OpenAlex has not, or, without an id, every search answered without a match; unverified when one of " +
    "those could not be asked. " +
    'Example: {"references":["Wakefield AJ et al. Lancet. 1998;351:637-41."]}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ references: ["Carberry J. Silly String Theory. 2008. doi:10.5555/12345678"] }],
  async run(args, ctx) {
    const parsed = parseReferences(args.references);
    if (parsed.length === 0) {
      throw new ToolError("INVALID_INPUT", "No reference found in 'references'.", "Pass one reference per item.", {
        invalidInput: { field: "references", value: args.references.slice(0, 3) },
      });
    }
    const binding = await cursorBinding(TOOL, { references: args.references });
    const offset = decodeCursor(args.cursor, binding, TOOL);
    const page = parsed.slice(offset, offset + PAGE);
    const entries: Entry[] = [];
    const failures: Failure[] = [];
    for (const [i, ref] of page.entries()) {
      await ctx.progress(i, page.length, `verifying reference ${offset + i + 1} of ${parsed.length}`);
      const { entry, failed } = await verifyOne(ref, offset + i + 1, ctx);
      entries.push(entry);
      failures.push(...failed);
    }
    // Nothing checked at all (a matched but unreadable record still tells the caller something).
    if (entries.every((e) => e.verdict === "unverified" && !e.unreadable_record)) {
      throw allFailed(entries.length, failures);
    }
    const next = offset + page.length;
    return {
      entries,
      total_count: parsed.length,
      ...(next < parsed.length ? { next_cursor: encodeCursor(next, binding) } : {}),
    };
  },
  render: (r) =>
    textBlock(
      `${r.entries.length} of ${r.total_count} references checked against ${SOURCES.join(", ")}.` +
        unverifiedLine(r.entries),
      r.entries.flatMap((e) => [
        "",
        `${e.index}. ${e.verdict}${e.mismatched ? ` (${e.mismatched.join(", ")} differ)` : ""}` +
        (e.unreadable_record ? ` (matched ${e.unreadable_record}; record unreadable)` : "") +
        ` confidence ${e.confidence}${e.retracted ? " RETRACTED" : ""}`,
        `   reference: ${e.reference}`,
        ...(e.record ? [`   record: ${recordLine(e.record)}`] : []),
        `   retraction: ${e.retraction}`,
        ...(e.updates ? [`   updates: ${e.updates.map(updateLine).join("; ")}`] : []),
        ...(e.oa_url ? [`   open access: ${e.oa_url}`] : []),
        ...(e.failed ?? []).map((f) => `   failed: ${f}`),
        ...(e.notes ?? []).map((n) => `   note: ${n}`),
      ]),
      r.next_cursor && serverLine(`next page: call again with the same references and cursor="${r.next_cursor}"`),
    ),
  // A page the output budget cut goes on after the entries kept (#31).
  paging: offsetPaging({ tool: TOOL, path: "entries", defining: (a) => ({ references: a.references }) }),
});

function recordLine(r: NonNullable<Entry["record"]>): string {
  const ids = [r.pmid && `PMID ${r.pmid}`, r.doi && `DOI ${r.doi}`, r.arxiv && `arXiv ${r.arxiv}`, r.openalex]
    .filter(Boolean).join(" · ");
  const about = [r.first_author, r.year, r.journal].filter(Boolean).join(", ");
  return `${ids}${ids ? ": " : ""}${r.title ?? "(untitled)"}${about ? ` (${about})` : ""}`;
}

function unverifiedLine(entries: Entry[]): string {
  const n = entries.filter((e) => e.verdict === "unverified").length;
  return n ? ` ${n} unverified: no match, but lookups failed (listed), so absence is unproven.` : "";
}

/** One lookup that failed: which source, which step, why, and the code its error alone would carry. */
interface Failure {
  source: string;
  what: string;
  reason: string;
  code: ErrorCode;
}

function failureOf(what: string, error: unknown): Failure {
  const source = SOURCES.find((s) => what.startsWith(s)) ?? what;
  const envelope = toErrorEnvelope(error);
  const code = envelope.code === "INTERNAL" ? "UPSTREAM_ERROR" : envelope.code;
  const message = error instanceof Error ? error.message : String(error);
  const status = error instanceof UpstreamError && error.status && !message.includes(String(error.status))
    ? `HTTP ${error.status}: `
    : "";
  const reason = `${status}${message}`.replace(/\s+/g, " ");
  return { source, what, reason: reason.length > 200 ? `${reason.slice(0, 199)}…` : reason, code };
}

/**
 * No reference on the page could be checked (each unverified): the call fails with the code the failures
 * share (RATE_LIMITED when any source throttled) instead of a page of unproven verdicts.
 */
function allFailed(count: number, failures: Failure[]): ToolError {
  const codes = new Set(failures.map((f) => f.code));
  const code: ErrorCode = codes.has("RATE_LIMITED")
    ? "RATE_LIMITED"
    : codes.size === 1 && !codes.has("ENTITY_NOT_FOUND")
    ? [...codes][0]
    : "UPSTREAM_ERROR";
  const bySource = SOURCES.map((s) => {
    const reasons = [...new Set(failures.filter((f) => f.source === s).map((f) => f.reason))];
    return reasons.length ? `${s}: ${reasons.slice(0, 2).join("; ")}` : undefined;
  }).filter(Boolean);
  const what = count === 1 ? "the reference" : `any of the ${count} references`;
  return new ToolError(
    code,
    `Could not check ${what}: lookups failed (${bySource.join(" | ")}).`,
    code === "RATE_LIMITED"
      ? "Wait a minute, then retry; PubMed, OpenAlex and Crossref were throttling requests."
      : code === "PAYLOAD_TOO_LARGE"
      ? "Retry later, or pass fewer references per call."
      : "Retry in a minute; PubMed, OpenAlex and Crossref were failing. Meanwhile search_papers can look " +
        "one title up.",
  );
}

/**
 * Looks a reference up everywhere it can be found, then decides. A failed lookup is named in `failed`; a
 * reference no record matched while any lookup failed is `unverified`, never `not_found`: the source that
 * failed may hold it (a DOI missing from OpenAlex while Crossref is down proves nothing).
 */
async function verifyOne(
  ref: ParsedReference,
  index: number,
  ctx: ToolContext,
): Promise<{ entry: Entry; failed: Failure[] }> {
  const missing = unreadable(ref);
  if (missing) return { entry: unreadableEntry(ref, index, missing), failed: [] };
  const notes: string[] = [];
  const failed: Failure[] = [];
  const attempt = async <T>(what: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ToolError && error.code === "ENTITY_NOT_FOUND") return undefined;
      if (ctx.signal.aborted) throw error;
      failed.push(failureOf(what, error));
      return undefined;
    }
  };
  /** Runs a lookup and tells whether it failed (undefined then means "not asked", not "absent"). */
  const tracked = async <T>(what: string, run: () => Promise<T>): Promise<{ value?: T; failed: boolean }> => {
    const before = failed.length;
    const value = await attempt(what, run);
    return { value, failed: failed.length > before };
  };
  const client = new OpenAlexClient(ctx);
  // One OpenAlex lookup per key and entry: a work the identifier step did not find is not asked for again.
  const looked = new Map<string, Promise<OpenAlexWork | undefined>>();
  const openalex: OpenAlexLookup = {
    client,
    work(ref) {
      const key = `${ref.kind}:${ref.id.toLowerCase()}`;
      if (!looked.has(key)) looked.set(key, openalexWork(ref, client));
      return looked.get(key)!;
    },
  };
  const found: Candidate[] = [];

  // Each identifier the reference gives, and whether every registry that could hold it said it does not.
  const absent: boolean[] = [];
  if (ref.pmid) {
    const got = await tracked("PubMed EFetch", () => pubmedArticles([ref.pmid!], ctx));
    const article = got.value?.get(ref.pmid);
    if (article) found.push(fromPubMed(article, true));
    else if (!got.failed) notes.push(`PMID ${ref.pmid} is not in PubMed`);
    absent.push(!article && !got.failed);
  }
  if (ref.doi) {
    const work = await tracked("Crossref", () => crossrefWork(ctx, ref.doi!));
    if (work.value) found.push(fromCrossrefWork(work.value, true));
    const oa = await tracked("OpenAlex", () => openalex.work({ kind: "doi", id: ref.doi! }));
    if (oa.value) found.push(fromOpenAlexWork(oa.value, true));
    const neither = !work.value && !oa.value && !work.failed && !oa.failed;
    if (neither) notes.push(`DOI ${ref.doi} is registered neither at Crossref nor in OpenAlex`);
    absent.push(neither);
  }
  const works: WorkRef[] = [
    ...(ref.arxiv ? [{ kind: "arxiv" as const, id: ref.arxiv }] : []),
    ...(ref.openalex ? [{ kind: "openalex" as const, id: ref.openalex }] : []),
  ];
  for (const id of works) {
    const oa = await tracked("OpenAlex", () => openalex.work(id));
    if (oa.value) found.push(fromOpenAlexWork(oa.value, true));
    else if (!oa.failed) notes.push(`${id.id} is not in OpenAlex`);
    absent.push(!oa.value && !oa.failed);
  }
  const unread = found.length ? [] : await search(ref, ctx, openalex, found, attempt);
  const decision = decide(ref, mergeCandidates(found));
  if (decision.best && decision.verdict !== "ambiguous") await enrich(decision.best.candidate, ctx, openalex, attempt);
  const made = entry(ref, index, withIdentifiers(ref, decision), notes, failed);
  if (decision.verdict !== "not_found") return { entry: made, failed };
  // ECitMatch named the work but its record could not be read: say so, not "not found".
  if (unread.length) {
    const [first] = unread;
    return {
      entry: {
        ...made,
        verdict: "unverified",
        unreadable_record: `PMID ${first.pmid} by ECitMatch`,
        confidence: 0,
        record: { pmid: first.pmid },
        notes: [
          ...(made.notes ?? []),
          ...unread.map((u) =>
            `ECitMatch matched PMID ${u.pmid} (journal, year, volume, page) but its PubMed record could not be ` +
            `read (${u.reason}); title and authors are unchecked: read it with fetchArticleDetails`
          ),
        ],
      },
      failed,
    };
  }
  // Absence is proven when every identifier was answered "not there" by every registry that could hold it
  // (a DOI by both Crossref and OpenAlex); else no match while a lookup failed proves nothing.
  const proven = absent.length > 0 && absent.every(Boolean);
  return { entry: !proven && failed.length > 0 ? { ...made, verdict: "unverified" } : made, failed };
}

/** A PMID ECitMatch matched whose PubMed record could not be read, and why. */
interface UnreadMatch {
  pmid: string;
  reason: string;
}

/**
 * What a reference lacks to be matched at all: an identifier, a title, or author + year + venue. Without
 * one, any record a search returns would "agree" on every field given (none), so the entry is `unreadable`
 * (an empty BibTeX title, a RIS record with no fields, braces nested too deep to read).
 */
function unreadable(ref: ParsedReference): string | undefined {
  if (ref.doi || ref.pmid || ref.arxiv || ref.openalex || ref.title) return undefined;
  const partial = [!ref.firstAuthor && "author", !ref.year && "year", !ref.journal && "venue"].filter(Boolean);
  if (partial.length === 0) return undefined;
  return `missing an identifier (DOI, PMID, arXiv id, OpenAlex W id), a title, and the ${partial.join(", ")} ` +
    "of author + year + venue";
}

function unreadableEntry(ref: ParsedReference, index: number, missing: string): Entry {
  return {
    index,
    reference: ref.text.length > 300 ? `${ref.text.slice(0, 299)}…` : ref.text,
    verdict: "unreadable",
    confidence: 0,
    retracted: false,
    retraction: "not checked: the reference could not be read",
    notes: [`unreadable: ${missing}; give a DOI, a PMID or the title`],
  };
}

interface OpenAlexLookup {
  client: OpenAlexClient;
  work(ref: WorkRef): Promise<OpenAlexWork | undefined>;
}

type Attempt = <T>(what: string, run: () => Promise<T>) => Promise<T | undefined>;

/**
 * No identifier resolved: ECitMatch (journal, year, volume, page), OpenAlex search, PubMed title search.
 * Returns the PMIDs ECitMatch matched whose records could not be read.
 */
async function search(
  ref: ParsedReference,
  ctx: ToolContext,
  openalex: OpenAlexLookup,
  found: Candidate[],
  attempt: Attempt,
): Promise<UnreadMatch[]> {
  const pmids = new Set<string>();
  const matched = new Set<string>();
  if (ref.journal && ref.year && (ref.volume || ref.firstPage)) {
    const match = await attempt("PubMed ECitMatch", () => eCitMatch(ctx, [citationQuery(ref)]));
    for (const m of match?.value ?? []) {
      if ("pmid" in m) {
        pmids.add(m.pmid);
        matched.add(m.pmid);
      }
    }
  }
  const query = ref.title ?? ref.text;
  const hits = await attempt(
    "OpenAlex search",
    () => openalex.client.worksCursorPage({ search: query.slice(0, 300) }, 5, "*"),
  );
  for (const w of hits?.works ?? []) found.push(fromOpenAlexWork(w, false));
  if (ref.title) {
    const term = `${ref.title.replace(/[[\]"]/g, " ").slice(0, 250)}[ti]`;
    const result = await attempt("PubMed search", () => eSearch(ctx, { term, retmax: 3, useHistory: false }));
    for (const id of (result?.value.ids ?? []).slice(0, 3)) pmids.add(id);
  }
  if (!pmids.size) return [];
  let why = "";
  const articles = await attempt("PubMed EFetch", async () => {
    try {
      return await pubmedArticles([...pmids], ctx);
    } catch (error) {
      why = failureOf("PubMed EFetch", error).reason;
      throw error;
    }
  });
  for (const a of articles?.values() ?? []) found.push(fromPubMed(a, false));
  return [...matched].filter((pmid) => !articles?.has(pmid)).map((pmid) => ({
    pmid,
    reason: articles ? "PubMed EFetch answered without it" : `PubMed EFetch failed: ${why}`,
  }));
}

/**
 * Reads the retraction signals the record's sources have not given yet: Crossref by DOI, OpenAlex by DOI
 * or PMID, PubMed by PMID (found through ECitMatch from the record's own fields when needed).
 */
async function enrich(c: Candidate, ctx: ToolContext, openalex: OpenAlexLookup, attempt: Attempt): Promise<void> {
  const merge = (other: Candidate | undefined) => {
    if (!other) return;
    Object.assign(c, mergeCandidates([c, other])[0]);
  };
  if (c.doi && !c.checked.has("Crossref")) {
    const work = await attempt("Crossref", () => crossrefWork(ctx, c.doi!));
    if (work) merge(fromCrossrefWork(work, c.byId));
  }
  if (!c.checked.has("OpenAlex")) {
    const ref: WorkRef | undefined = c.openalex
      ? { kind: "openalex", id: c.openalex }
      : c.doi
      ? { kind: "doi", id: c.doi }
      : c.pmid
      ? { kind: "pmid", id: c.pmid }
      : undefined;
    const work = ref && await attempt("OpenAlex", () => openalex.work(ref));
    if (work) merge(fromOpenAlexWork(work, c.byId));
  }
  if (!c.pmid && c.journals.length && c.year && (c.volume || c.firstPage)) {
    const match = await attempt(
      "PubMed ECitMatch",
      () =>
        eCitMatch(ctx, [
          citationQuery({
            text: "",
            journal: c.journals[0],
            year: c.year,
            volume: c.volume,
            firstPage: c.firstPage,
            firstAuthor: c.firstAuthor,
          }),
        ]),
    );
    const hit = match?.value.find((m) => "pmid" in m);
    if (hit && "pmid" in hit) c.pmid = hit.pmid;
  }
  if (c.pmid && !c.checked.has("PubMed")) {
    const article = (await attempt("PubMed EFetch", () => pubmedArticles([c.pmid!], ctx)))?.get(c.pmid);
    if (article) merge(fromPubMed(article, c.byId));
  }
}

/**
 * A record found by search while the reference gives another DOI or PMID (one that resolves nowhere, or to
 * another record): the identifier is among the fields that disagree.
 */
function withIdentifiers(ref: ParsedReference, d: Decision): Decision {
  const c = d.best?.candidate;
  if (!c || d.verdict === "ambiguous" || d.verdict === "not_found") return d;
  const wrong = [
    ...(ref.doi && ref.doi.toLowerCase() !== c.doi?.toLowerCase() ? ["doi" as const] : []),
    ...(ref.pmid && ref.pmid !== c.pmid ? ["pmid" as const] : []),
  ];
  if (!wrong.length) return d;
  return { ...d, verdict: "mismatch", best: { ...d.best!, disagree: [...d.best!.disagree, ...wrong] } };
}

function citationQuery(ref: ParsedReference) {
  return {
    journal: ref.journal,
    year: ref.year,
    volume: ref.volume,
    firstPage: ref.firstPage,
    author: ref.firstAuthor,
    key: "ref",
  };
}

function entry(ref: ParsedReference, index: number, d: Decision, notes: string[], failures: Failure[]): Entry {
  const failed = [...new Set(failures.map((f) => `${f.what}: ${f.reason}`))];
  const c = d.best?.candidate;
  const checked = c ? SOURCES.filter((s) => c.checked.has(s)) : [];
  const retracted = !!c && d.verdict !== "ambiguous" && c.notices.length > 0;
  const retraction = !c || d.verdict === "ambiguous"
    ? "not checked: no single record resolved"
    : retracted
    ? `retracted: ${c.notices.join("; ")}`
    : checked.length
    ? `no retraction notice found in ${checked.join(", ")}`
    : "not checked: no source answered for this record";
  if (d.rival) notes.push(`as close: ${d.rival.candidate.title ?? "(untitled)"} (${ids(d.rival.candidate)})`);
  return {
    index,
    reference: ref.text.length > 300 ? `${ref.text.slice(0, 299)}…` : ref.text,
    verdict: d.verdict,
    ...(d.verdict === "mismatch" ? { mismatched: d.best!.disagree } : {}),
    confidence: d.confidence,
    ...(c && d.verdict !== "not_found"
      ? {
        record: compact({
          title: c.title,
          first_author: c.firstAuthor,
          year: c.year,
          journal: c.journals[0],
          pmid: c.pmid,
          doi: c.doi,
          arxiv: c.arxiv,
          openalex: c.openalex,
        }),
      }
      : {}),
    retracted,
    retraction,
    ...(c && d.verdict !== "ambiguous" && d.verdict !== "not_found" && c.updates.length ? { updates: c.updates } : {}),
    ...(c?.oaUrl && d.verdict !== "not_found" ? { oa_url: c.oaUrl } : {}),
    ...(failed.length ? { failed } : {}),
    ...(notes.length ? { notes } : {}),
  };
}

function ids(c: Candidate): string {
  return [c.pmid && `PMID ${c.pmid}`, c.doi && `DOI ${c.doi}`, c.openalex].filter(Boolean).join(" · ");
}

function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
