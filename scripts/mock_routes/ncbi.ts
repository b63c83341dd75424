/**
 * Mock upstream routes for PubMed on NCBI E-utilities (db=pubmed ESearch, ESummary, EFetch, ELink and
 * EInfo), replaying recorded bodies from fixtures/ncbi. Gene routes (db=gene) come first in ALL_ROUTES;
 * these answer only PubMed requests and let anything else fall through.
 *
 * EFetch is assembled per request from the recorded PubMed records (every fixtures/ncbi/pubmed file,
 * the MEDLINE baseline included), so any recorded PMID can be fetched, alone or with others. Sentinel
 * search terms select the recorded fault bodies: "fleegle" (ErrorList) and "nonexistent" (WarningList).
 */
import { splitMedlineText } from "../../src/sources/ncbi/pubmed/parse_medline_text.ts";
import { splitRawRecords } from "../../src/sources/ncbi/pubmed/raw.ts";
import { fixtureResponse, fixtureText, type MockRequest, type MockRoute } from "./types.ts";

const XML = "text/xml; charset=UTF-8";
const TEXT = "text/plain; charset=UTF-8";
const PUBMED_DIR = new URL("../../fixtures/ncbi/pubmed/", import.meta.url);
const SUMMARY_FIXTURE = "ncbi/eutils/eutilsjson__esummary.pubmed.xml";
/** The recorded search with a history (WebEnv); history ESummary requests answer for its PMIDs. */
const HISTORY_SEARCH = "ncbi/eutils/biopython__esearch2.xml";
const DOCTYPE = '<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2025//EN" ' +
  '"https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd">';

/** Recorded ELink answers by `id` and kind. */
const ELINKS: Record<string, { scores?: string; links?: string }> = {
  "9298984": { scores: "ncbi/eutils/biopython__elink1_2008_scores.xml", links: "ncbi/eutils/biopython__elink1.xml" },
  "12242737": { scores: "ncbi/eutils/biopython__elink4_2008_scores.xml" },
};

function isPubmed(req: MockRequest, path: string, dbParam = "db"): boolean {
  return req.path === path && req.params.get(dbParam) === "pubmed";
}

function xml(body: string): Response {
  return new Response(body, { headers: { "content-type": XML } });
}

function esearch(req: MockRequest): Response | undefined {
  if (!isPubmed(req, "/esearch.fcgi")) return undefined;
  const term = (req.params.get("term") ?? "").toLowerCase();
  if (term.includes("fleegle")) return fixtureResponse("ncbi/eutils/eutilsjson__esearch.error.xml", XML);
  if (term.includes("nonexistent") || term.includes("biopythooon")) {
    return fixtureResponse("ncbi/eutils/built__esearch_warninglist.xml", XML);
  }
  if (term.includes("stem cells")) return fixtureResponse("ncbi/eutils/biopython__esearch5.xml", XML);
  if (req.params.get("rettype") === "count") return yearCount(req);
  if (req.params.get("usehistory") === "y") return xml(pagedSearch(fixtureText(HISTORY_SEARCH), req));
  const start = Number(req.params.get("retstart") ?? "0") || 0;
  if (start === 0) return fixtureResponse(SEARCH, XML);
  // A later page: the recorded ids from retstart on (none past the end), so paging neither repeats nor invents.
  const recorded = fixtureText(SEARCH);
  const ids = [...recorded.matchAll(/<Id>(\d+)<\/Id>/g)].map((m) => m[1]).slice(start);
  return xml(
    recorded.replace(/<IdList>[\s\S]*?<\/IdList>/, `<IdList>${ids.map((id) => `<Id>${id}</Id>`).join("")}</IdList>`),
  );
}

/** The recorded history search paged as ESearch pages it: its IdList from retstart, at most retmax ids. */
function pagedSearch(body: string, req: MockRequest): string {
  const start = Math.max(0, Number(req.params.get("retstart") ?? "0") || 0);
  const max = Math.max(0, Number(req.params.get("retmax") ?? "20") || 20);
  const ids = [...body.matchAll(/<Id>(\d+)<\/Id>/g)].map((m) => m[1]).slice(start, start + max);
  return body
    .replace(/<IdList>[\s\S]*?<\/IdList>/, `<IdList>${ids.map((id) => `<Id>${id}</Id>`).join("")}</IdList>`)
    .replace(/<RetStart>\d+<\/RetStart>/, `<RetStart>${start}</RetStart>`)
    .replace(/<RetMax>\d+<\/RetMax>/, `<RetMax>${ids.length}</RetMax>`);
}

/** The recorded ESearch every other PubMed search is answered with. */
const SEARCH = "ncbi/eutils/biopython__esearch1.xml";

/**
 * A `rettype=count` ESearch (the shape NCBI sends: only `<Count>`), counting the recorded PubMed records
 * whose publication year lies in mindate..maxdate. The term is not matched: any query sees the same corpus.
 */
function yearCount(req: MockRequest): Response {
  const from = Number(req.params.get("mindate")?.slice(0, 4) ?? "0") || 0;
  const to = Number(req.params.get("maxdate")?.slice(0, 4) ?? "9999") || 9999;
  let count = 0;
  for (const raw of records().xml.values()) {
    const year = Number(/<PubDate>\s*(?:<Year>(\d{4})|<MedlineDate>(\d{4}))/.exec(raw)?.slice(1).find(Boolean));
    if (year >= from && year <= to) count++;
  }
  return xml(
    `<?xml version="1.0" encoding="UTF-8" ?>\n<!DOCTYPE eSearchResult PUBLIC "-//NLM//DTD esearch 20060628//EN" ` +
      `"https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20060628/esearch.dtd">\n<eSearchResult><Count>${count}</Count></eSearchResult>\n`,
  );
}

/**
 * Over the history (WebEnv) the recorded summary set answers. By id, recorded summaries answer their
 * uids and every other uid gets ESummary's documented per-id error element.
 */
/** The PMIDs a history ESummary covers: those of the one recorded history search, retstart/retmax applied. */
function historyIds(req: MockRequest): string[] {
  const all = [...fixtureText(HISTORY_SEARCH).matchAll(/<Id>(\d+)<\/Id>/g)].map((m) => m[1]);
  const start = Number(req.params.get("retstart") ?? "0") || 0;
  return all.slice(start, start + (Number(req.params.get("retmax") ?? "20") || 20));
}

function esummary(req: MockRequest): Response | undefined {
  if (!isPubmed(req, "/esummary.fcgi")) return undefined;
  const ids = req.params.get("WebEnv") ? historyIds(req) : (req.params.get("id") ?? "").split(",").map((s) => s.trim())
    .filter(Boolean);
  if (ids.length === 0) return fixtureResponse("ncbi/eutils/biopython__esummary8.xml", XML);
  const recorded = new Map(
    [...fixtureText(SUMMARY_FIXTURE).matchAll(/<DocumentSummary uid="(\d+)">[\s\S]*?<\/DocumentSummary>/g)]
      .map((m) => [m[1], m[0]]),
  );
  const docs = ids.map((id) =>
    recorded.get(id) ?? `<DocumentSummary uid="${id}"><error>cannot get document summary</error></DocumentSummary>`
  );
  return xml(
    `<?xml version="1.0" encoding="UTF-8" ?>\n<eSummaryResult>\n<DocumentSummarySet status="OK">\n${
      docs.join("\n")
    }\n</DocumentSummarySet>\n</eSummaryResult>\n`,
  );
}

interface RecordIndex {
  xml: Map<string, string>;
  medline: Map<string, string>;
}

let index: RecordIndex | undefined;

/** PMID → recorded record, built on first use (the baseline file is 3.9 MB). */
function records(): RecordIndex {
  if (index) return index;
  const xmlRecords = new Map<string, string>();
  const medline = new Map<string, string>();
  for (const entry of [...Deno.readDirSync(PUBMED_DIR)].sort((a, b) => a.name.localeCompare(b.name))) {
    const body = Deno.readTextFileSync(new URL(entry.name, PUBMED_DIR));
    if (entry.name.endsWith(".xml")) {
      for (const [pmid, raw] of splitRawRecords(body)) {
        // Baseline records are bare MedlineCitation elements; EFetch wraps each in a PubmedArticle.
        if (!xmlRecords.has(pmid)) {
          xmlRecords.set(pmid, raw.startsWith("<MedlineCitation") ? `<PubmedArticle>${raw}</PubmedArticle>` : raw);
        }
      }
    } else if (/medline/.test(entry.name)) {
      for (const r of splitMedlineText(body)) if (!medline.has(r.pmid)) medline.set(r.pmid, r.text);
    }
  }
  return (index = { xml: xmlRecords, medline });
}

function efetch(req: MockRequest): Response | undefined {
  if (!isPubmed(req, "/efetch.fcgi")) return undefined;
  const ids = (req.params.get("id") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  if (ids.length === 0) return fixtureResponse("ncbi/eutils/pubmedly__efetch_empty_id_error.xml", XML);
  const { xml: xmlRecords, medline } = records();
  if (req.params.get("rettype") === "medline") {
    const found = ids.map((id) => medline.get(id)).filter(Boolean);
    return new Response(`\n${found.join("\n\n")}\n`, { headers: { "content-type": TEXT } });
  }
  const found = ids.map((id) => xmlRecords.get(id)).filter(Boolean);
  return xml(`<?xml version="1.0" ?>\n${DOCTYPE}\n<PubmedArticleSet>\n${found.join("\n")}\n</PubmedArticleSet>\n`);
}

function elink(req: MockRequest): Response | undefined {
  if (!isPubmed(req, "/elink.fcgi", "dbfrom")) return undefined;
  const id = req.params.get("id") ?? "";
  const recorded = ELINKS[id];
  const file = req.params.get("cmd") === "neighbor_score" ? recorded?.scores : recorded?.links;
  if (file) return fixtureResponse(file, XML);
  // No recording for this id: an answer with no LinkSetDb, as ELink gives for an article without links.
  return xml(
    `<?xml version="1.0" encoding="UTF-8" ?>\n<eLinkResult><LinkSet><DbFrom>pubmed</DbFrom><IdList><Id>${
      id.replace(/[^\d]/g, "")
    }</Id></IdList></LinkSet></eLinkResult>\n`,
  );
}

function einfo(req: MockRequest): Response | undefined {
  if (!isPubmed(req, "/einfo.fcgi")) return undefined;
  return fixtureResponse("ncbi/eutils/biopython__einfo2_pubmed.xml", XML);
}

export const ncbiRoutes: MockRoute[] = [
  { prefix: "ncbi", name: "pubmed esearch", handle: esearch },
  { prefix: "ncbi", name: "pubmed esummary", handle: esummary },
  { prefix: "ncbi", name: "pubmed efetch", handle: efetch },
  { prefix: "ncbi", name: "pubmed elink", handle: elink },
  { prefix: "ncbi", name: "pubmed einfo", handle: einfo },
];
