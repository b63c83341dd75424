/**
 * Mock upstream routes for the research tools: arXiv keyword search, OpenAlex works search with basic
 * paging (`page`), the PMC ID Converter (/idconv) and EFetch db=pmc. They replay recorded bodies (and the
 * BUILT converter answers named in fixtures/ncbi/idconv/PROVENANCE) and come before the other routes, so
 * requests they do not recognise fall through to them.
 */
import { fixtureResponse, fixtureText, type MockRequest, type MockRoute } from "./types.ts";

const ATOM = "application/atom+xml; charset=utf-8";
const JSON_TYPE = "application/json";
const SEARCH_FEED = "arxiv/api/arxivpy__search_testing_m10.atom.xml";
const EMPTY_FEED = "arxiv/api/arxivpy__id_0000.0000_empty.atom.xml";
const WORKS_SEARCH = "openalex/openalexsdk__works_search_english_africa.json";

/** A keyword search (anything but the `cat:` listing and `id_list` lookups the papers routes serve). */
function arxivSearch(req: MockRequest): Response | undefined {
  const q = req.params.get("search_query");
  if (req.path !== "/query" || !q || req.params.has("id_list") || /^cat:\S+$/.test(q)) return undefined;
  const start = Number(req.params.get("start") ?? "0");
  return fixtureResponse(start === 0 ? SEARCH_FEED : EMPTY_FEED, ATOM);
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

export const researchRoutes: MockRoute[] = [
  { prefix: "arxiv-api", name: "arXiv keyword search (search_query)", handle: arxivSearch },
  { prefix: "openalex", name: "OpenAlex works search (page paging)", handle: openalexSearch },
];
