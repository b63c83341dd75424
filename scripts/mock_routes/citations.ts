/**
 * Mock upstream routes for the citation tools (issue #25): Crossref `/works/{doi}`, OpenAlex lookups by
 * external id (`/works/pmid:…`, `/works/doi:…`, `/works/pmcid:…`), NCBI ECitMatch, ESpell and MeSH. They replay the
 * recorded or BUILT bodies named in fixtures/crossref/PROVENANCE and fixtures/ncbi/eutils/PROVENANCE;
 * OpenAlex work lists (the `cites:`, `cited_by:`, `related_to:` filters, searches) fall through to the
 * papers routes, which page the recorded works list.
 */
import { fixtureResponse, fixtureText, type MockRequest, type MockRoute } from "./types.ts";

const JSON_TYPE = "application/json";
const XML = "text/xml; charset=UTF-8";

/** DOI (lower case) → recorded or BUILT Crossref work. */
const CROSSREF_WORKS: Record<string, string> = {
  "10.5555/12345678": "crossref/built__work_10.5555_12345678.json",
  "10.1016/s0140-6736(97)11096-0": "crossref/built__work_wakefield_1998.json",
};

/** External id → the recorded OpenAlex work that carries it (its `ids` object lists them). */
const OPENALEX_BY_EXTERNAL_ID: Record<string, string> = {
  "pmid:29456894": "openalex/openalexpython__W2741809807_2025.json",
  "pmcid:pmc5815332": "openalex/openalexpython__W2741809807_2025.json",
  "doi:10.7717/peerj.4375": "openalex/openalexpython__W2741809807_2025.json",
};

/**
 * ECitMatch answers by `journal|year|volume|first page`: the two matches of the recorded
 * pubmedclient__ecitmatch_mixed.txt, and PMID 9500320 for the BUILT retracted record.
 */
const CITATIONS: Record<string, string> = {
  "proc natl acad sci u s a|1991|88|3248": "2014248",
  "n engl j med|2020|382|727": "31978945",
  "lancet|1998|351|637": "9500320",
  "the lancet|1998|351|637": "9500320",
};

function crossrefWork(req: MockRequest): Response | undefined {
  const m = /^\/works\/(.+)$/.exec(req.path);
  if (!m) return undefined;
  const file = CROSSREF_WORKS[decodeURIComponent(m[1]).toLowerCase()];
  if (!file) return new Response("Resource not found.", { status: 404, headers: { "content-type": "text/plain" } });
  return fixtureResponse(file, JSON_TYPE);
}

function openalexByExternalId(req: MockRequest): Response | undefined {
  const m = /^\/works\/((?:pmid|pmcid|doi):.+)$/i.exec(decodeURIComponent(req.path));
  if (!m) return undefined;
  const file = OPENALEX_BY_EXTERNAL_ID[m[1].toLowerCase()];
  if (!file) {
    return new Response(JSON.stringify({ error: "Not Found", message: `Work ${m[1]} not found` }), { status: 404 });
  }
  return new Response(fixtureText(file), { headers: { "content-type": JSON_TYPE, "x-ratelimit-cost-usd": "0" } });
}

/** One answer line per `bdata` line, in NCBI's format: the line with the PMID or NOT_FOUND appended. */
function ecitmatch(req: MockRequest): Response | undefined {
  if (req.path !== "/ecitmatch.cgi") return undefined;
  const lines = (req.params.get("bdata") ?? "").split(/\r\n|\r|\n/).filter((l) => l.trim());
  const answer = lines.map((line) => {
    const f = line.split("|");
    const key = f.slice(0, 4).map((s) => s.trim().toLowerCase()).join("|");
    return `${f.slice(0, 6).join("|")}|${CITATIONS[key] ?? "NOT_FOUND"}`;
  });
  return new Response(answer.join("\n") + "\n", { headers: { "content-type": "text/plain" } });
}

/**
 * ESpell: the recorded biopython__espell.xml for its query ("biopythooon"); any other query gets the same
 * document BUILT with that query and an empty CorrectedQuery (ESpell's "no suggestion").
 */
function espell(req: MockRequest): Response | undefined {
  if (req.path !== "/espell.fcgi") return undefined;
  const recorded = fixtureText("ncbi/eutils/biopython__espell.xml");
  const term = req.params.get("term") ?? "";
  if (term.trim().toLowerCase() === "biopythooon") return new Response(recorded, { headers: { "content-type": XML } });
  const escaped = term.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const built = recorded.replace(/<Query>[^<]*<\/Query>/, `<Query>${escaped}</Query>`)
    .replace(/<CorrectedQuery>[^<]*<\/CorrectedQuery>/, "<CorrectedQuery></CorrectedQuery>")
    .replace(/<SpelledQuery>[\s\S]*?<\/SpelledQuery>/, "<SpelledQuery/>");
  return new Response(built, { headers: { "content-type": XML } });
}

/**
 * MeSH: ESearch db=mesh is BUILT (no recorded MeSH search was found): any term finds the one recorded
 * summary's uid, a term with "zzz" finds nothing. ESummary db=mesh replays eutilsjson__esummary.mesh.xml.
 */
function mesh(req: MockRequest): Response | undefined {
  if (req.params.get("db") !== "mesh") return undefined;
  if (req.path === "/esummary.fcgi") return fixtureResponse("ncbi/eutils/eutilsjson__esummary.mesh.xml", XML);
  if (req.path !== "/esearch.fcgi") return undefined;
  const none = /zzz/i.test(req.params.get("term") ?? "");
  return new Response(
    '<?xml version="1.0" encoding="UTF-8" ?>\n<eSearchResult><Count>' + (none ? 0 : 1) + "</Count><RetMax>" +
      (none ? 0 : 1) + "</RetMax><RetStart>0</RetStart><IdList>" + (none ? "" : "<Id>67414177</Id>") +
      "</IdList><TranslationSet/><QueryTranslation/></eSearchResult>\n",
    { headers: { "content-type": XML } },
  );
}

export const citationRoutes: MockRoute[] = [
  { prefix: "ncbi", name: "mesh esearch and esummary", handle: mesh },
  { prefix: "ncbi", name: "pubmed espell", handle: espell },
  { prefix: "crossref", name: "crossref work by DOI", handle: crossrefWork },
  { prefix: "openalex", name: "openalex work by external id", handle: openalexByExternalId },
  { prefix: "ncbi", name: "pubmed ecitmatch", handle: ecitmatch },
];
