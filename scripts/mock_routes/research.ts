/**
 * Mock upstream routes for the research tools: arXiv keyword search (a query naming "criticality" answers
 * with the recorded quantum-criticality search, whose paper's PDF is recorded; any other with the "testing"
 * search), OpenAlex works search with basic
 * paging (`page`), the PMC ID Converter (/idconv) and EFetch db=pmc. They replay recorded bodies (and the
 * BUILT converter answers named in fixtures/ncbi/idconv/PROVENANCE) and come before the other routes, so
 * requests they do not recognise fall through to them.
 */
import { fixtureResponse, fixtureText, type MockRequest, type MockRoute, slicedAtomFeed } from "./types.ts";

const ATOM = "application/atom+xml; charset=utf-8";
const JSON_TYPE = "application/json";
const SEARCH_FEED = "arxiv/api/arxivpy__search_testing_m10.atom.xml";
/** The recorded search whose first entry (1111.2011v2) has its PDF recorded too (the library walk). */
const CRITICALITY_FEED = "arxiv/api/arxivpy__2016_search_del_maestro.atom.xml";
const EMPTY_FEED = "arxiv/api/arxivpy__id_0000.0000_empty.atom.xml";
const WORKS_SEARCH = "openalex/openalexsdk__works_search_english_africa.json";
const XML = "text/xml; charset=UTF-8";
const IDCONV = "ncbi/idconv/built__idconv_pmids.json";
const PUBMED_DIR = new URL("../../fixtures/ncbi/pubmed/", import.meta.url);
const PMC_DOCTYPE = '<!DOCTYPE pmc-articleset PUBLIC "-//NLM//DTD ARTICLE SET 2.0//EN" ' +
  '"https://dtd.nlm.nih.gov/ncbi/pmc/articleset/nlm-articleset-2.0.dtd">';

/** Recorded (or BUILT) EFetch db=pmc answers by numeric PMC id. */
const PMC_ARTICLES: Record<string, string> = {
  "3299399": "ncbi/pmc/biocommons__pmc_PMC3299399.xml",
  "8435807": "ncbi/pmc/biopython__efetch_pmc.xml",
  "5442267": "ncbi/pmc/built__efetch_pmc_no_body_PMC5442267.xml",
};

/**
 * A keyword search (anything but the `cat:` listing and `id_list` lookups the papers routes serve): the
 * recorded 10-entry feed sliced by `start` and `max_results`, as arXiv pages; past it, the recorded empty feed.
 */
function arxivSearch(req: MockRequest): Response | undefined {
  const q = req.params.get("search_query");
  if (req.path !== "/query" || !q || req.params.has("id_list") || /^cat:\S+$/.test(q)) return undefined;
  const start = Math.max(0, Number(req.params.get("start") ?? "0") || 0);
  const max = Math.max(1, Number(req.params.get("max_results") ?? "10") || 10);
  const body = slicedAtomFeed(
    fixtureText(/criticality|del_maestro/i.test(q) ? CRITICALITY_FEED : SEARCH_FEED),
    start,
    max,
  );
  return body ? new Response(body, { headers: { "content-type": ATOM } }) : fixtureResponse(EMPTY_FEED, ATOM);
}

/** `/works?page=N&per_page=M`: the recorded 200-work search page, sliced. Cursor requests fall through. */
function openalexSearch(req: MockRequest): Response | undefined {
  if (req.path !== "/works" || !req.params.has("page")) return undefined;
  const list = JSON.parse(fixtureText(WORKS_SEARCH));
  const perPage = Math.min(200, Math.max(1, Number(req.params.get("per_page") ?? "25") || 25));
  const page = Math.max(1, Number(req.params.get("page")) || 1);
  const results = list.results.slice((page - 1) * perPage, page * perPage);
  return new Response(
    JSON.stringify({ meta: { ...list.meta, page, per_page: perPage, next_cursor: null }, results, group_by: [] }),
    { headers: { "content-type": JSON_TYPE, "x-ratelimit-cost-usd": "0.0001" } },
  );
}

type IdRecord = Record<string, unknown>;

/**
 * The converter over the BUILT records: each requested id (of the given idtype) answered by the record
 * that carries it, or by the converter's error record.
 */
function idconv(req: MockRequest): Response | undefined {
  if (req.path !== "/" && req.path !== "") return undefined;
  const type = req.params.get("idtype") ?? "";
  const ids = (req.params.get("ids") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const built = JSON.parse(fixtureText(IDCONV));
  const known = (built.records as IdRecord[]).filter((r) => r.status !== "error");
  const records = ids.map((id) => {
    const hit = known.find((r) => String(r[type] ?? "").toLowerCase() === id.toLowerCase());
    if (hit) return { ...hit, "requested-id": id };
    const wellFormed = type === "pmid"
      ? /^\d{1,9}$/.test(id)
      : type === "pmcid"
      ? /^PMC\d+$/i.test(id)
      : id.startsWith("10.");
    return wellFormed
      ? {
        ...(type === "pmid" ? { pmid: Number(id) } : {}),
        "requested-id": id,
        status: "error",
        errmsg: "Identifier not found in PMC",
      }
      : { "requested-id": id, status: "error", errmsg: "invalid article id" };
  });
  const request = `ids=${encodeURIComponent(ids.join(","))};idtype=${type};format=json`;
  return new Response(JSON.stringify({ ...built, request, records }), { headers: { "content-type": JSON_TYPE } });
}

/** EFetch db=pmc: the recorded article, or an empty article set for any other id. */
function efetchPmc(req: MockRequest): Response | undefined {
  if (req.path !== "/efetch.fcgi" || req.params.get("db") !== "pmc") return undefined;
  const file = PMC_ARTICLES[(req.params.get("id") ?? "").replace(/^PMC/i, "")];
  if (file) return fixtureResponse(file, XML);
  return new Response(`<?xml version="1.0" ?>\n${PMC_DOCTYPE}\n<pmc-articleset></pmc-articleset>\n`, {
    headers: { "content-type": XML },
  });
}

/** PMID of the recorded PubMed record whose ArticleIdList holds `doi`. */
function pmidForDoi(doi: string): string | undefined {
  for (const entry of Deno.readDirSync(PUBMED_DIR)) {
    if (!entry.name.endsWith(".xml")) continue;
    const body = Deno.readTextFileSync(new URL(entry.name, PUBMED_DIR));
    for (const article of body.split(/<PubmedArticle>/).slice(1)) {
      const dois = [...article.matchAll(/<ArticleId IdType="doi">([^<]+)<\/ArticleId>/g)].map((m) =>
        m[1].toLowerCase()
      );
      if (dois.includes(doi.toLowerCase())) return /<PMID[^>]*>(\d+)<\/PMID>/.exec(article)?.[1];
    }
  }
  return undefined;
}

/** ESearch db=pubmed for `<doi>[doi]` (how a DOI outside PMC finds its PMID): BUILT answers. */
function esearchDoi(req: MockRequest): Response | undefined {
  if (req.path !== "/esearch.fcgi" || req.params.get("db") !== "pubmed") return undefined;
  const doi = /^"?(10\.[^"\s]+)"?\[doi\]$/i.exec((req.params.get("term") ?? "").trim())?.[1];
  if (!doi) return undefined;
  const pmid = pmidForDoi(doi);
  const ids = pmid ? `<Id>${pmid}</Id>\n` : "";
  return new Response(
    `<?xml version="1.0" encoding="UTF-8" ?>\n<eSearchResult><Count>${pmid ? 1 : 0}</Count><RetMax>${pmid ? 1 : 0}` +
      `</RetMax><RetStart>0</RetStart><IdList>\n${ids}</IdList><TranslationSet/>` +
      `<QueryTranslation>${doi}[doi]</QueryTranslation></eSearchResult>\n`,
    { headers: { "content-type": XML } },
  );
}

export const researchRoutes: MockRoute[] = [
  { prefix: "idconv", name: "PMC ID Converter (BUILT records)", handle: idconv },
  { prefix: "ncbi", name: "PMC efetch (JATS)", handle: efetchPmc },
  { prefix: "ncbi", name: "pubmed esearch by DOI (BUILT)", handle: esearchDoi },
  { prefix: "arxiv-api", name: "arXiv keyword search (search_query)", handle: arxivSearch },
  { prefix: "openalex", name: "OpenAlex works search (page paging)", handle: openalexSearch },
];
