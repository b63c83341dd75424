/**
 * Mock upstream routes for the papers sources (arXiv API, arXiv web, ar5iv, OpenAlex, publisher hosts),
 * replaying recorded bodies from fixtures/arxiv and fixtures/openalex (BUILT fixtures are marked as such
 * in each folder's PROVENANCE). Two deliberate liberties: OpenAlex lists are served in per_page slices of
 * the recorded 200-work page (ending with the recorded empty last page), and the location URLs of a
 * single work are rewritten to this mock's /publisher prefix, so nothing ever reaches a real publisher.
 */
import { fixtureResponse, fixtureText, type MockRequest, type MockRoute, slicedAtomFeed } from "./types.ts";

const ATOM = "application/atom+xml; charset=utf-8";
const HTML = "text/html; charset=utf-8";
const JSON_TYPE = "application/json";

/** arXiv ids (with or without version) → recorded (or BUILT) API answers for `id_list`. */
const ARXIV_BY_ID: Record<string, string> = {
  "2104.12255": "arxivpy__id_2104.12255v1.atom.xml",
  "1707.08567": "arxivpy__id_1707.08567.atom.xml",
  "1605.08386": "arxivpy__id_1605.08386.atom.xml",
  "quant-ph/0201082": "arxivpy__id_quant-ph_0201082v1.atom.xml",
  "astro-ph/0601001": "arxivpy__id_astro-ph_0601001.atom.xml",
  "2501.11120": "built__id_2501.11120v1.atom.xml",
  // The recorded 2016 search feed holds both of these entries.
  "1111.2011": "arxivpy__2016_search_del_maestro.atom.xml",
  "cond-mat/0607501": "arxivpy__2016_search_del_maestro.atom.xml",
};
const ARXIV_ID = /^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?\/\d{7})(v\d+)?$/;

const WEB_PAGES: Record<string, [string, string]> = {
  "/html/2501.11120": ["arxiv/html/arxiv2md__html_2501.11120v1.html", HTML],
  "/html/2501.11120v1": ["arxiv/html/arxiv2md__html_2501.11120v1.html", HTML],
  "/html/2401.10725v1": ["arxiv/html/arxivbrowse__html_2401.10725v1_eptcs_not_latexml.html", HTML],
  "/abs/2106.09608": ["arxiv/html/tkukurin__abs_2106.09608.html", HTML],
  "/abs/2106.09608v2": ["arxiv/html/tkukurin__abs_2106.09608.html", HTML],
  "/pdf/1111.2011v2": ["arxiv/pdf/arxivpy__1111.2011v2.pdf", "application/pdf"],
};

const WORKS: Record<string, string> = {
  W2741809807: "openalexpython__W2741809807_2025.json",
  W1982728624: "commonmeta__work_article_pone.0000030.json",
  W97658052: "commonmeta__work_book_cambridge.json",
  W3174427814: "commonmeta__work_conference_paper_acm.json",
  W6945048743: "commonmeta__work_dataset_pdb4hhb.json",
  W1512509001: "commonmeta__work_german_language_no_abstract.json",
  W4312032943: "commonmeta__work_missing_contributor_name.json",
  W6885490810: "commonmeta__work_other_figure_component.json",
  W3027264027: "commonmeta__work_peer_review_elife.json",
  W2581393460: "commonmeta__work_preprint_biorxiv.json",
  W1989154056: "commonmeta__work_article_no_abstract_10_authors.json",
};

const ENTITY_LISTS: Record<string, string> = {
  "/domains": "built__domains_list.json",
  "/fields": "built__fields_list.json",
  "/subfields": "built__subfields_list.json",
};

const LAST_PAGE = "openalex/openalexpro__works_cursor_last_page_empty.json";

function arxivQuery(req: MockRequest): Response {
  const idList = req.params.get("id_list");
  if (idList) {
    if (!ARXIV_ID.test(idList)) return fixtureResponse("arxiv/api/arxivpy__id_abc_HTTP400_error.atom.xml", ATOM, 400);
    const file = ARXIV_BY_ID[idList.replace(/v\d+$/, "")] ?? "arxivpy__id_0000.0000_empty.atom.xml";
    return fixtureResponse(`arxiv/api/${file}`, ATOM);
  }
  if (/^cat:\S+$/.test(req.params.get("search_query") ?? "")) {
    // The recorded 10-entry feed, sliced by start and max_results; past it, what arXiv really does at times:
    // an empty feed claiming totalResults 0.
    const start = Math.max(0, Number(req.params.get("start") ?? "0") || 0);
    const max = Math.max(1, Number(req.params.get("max_results") ?? "10") || 10);
    const body = slicedAtomFeed(fixtureText("arxiv/api/arxivpy__search_testing_m10.atom.xml"), start, max);
    if (body) return new Response(body, { headers: { "content-type": ATOM } });
    return fixtureResponse("arxiv/api/built__search_cat_cs.LG_start10_empty.atom.xml", ATOM);
  }
  return fixtureResponse("arxiv/api/arxivpy__id_abc_HTTP400_error.atom.xml", ATOM, 400);
}

function notFound(what: string): Response {
  return new Response(`<html><body><h1>Not found</h1><p>${what} is not recorded in the mock.</p></body></html>`, {
    status: 404,
    headers: { "content-type": HTML },
  });
}

function openalexJson(body: unknown, cost: string): Response {
  return new Response(JSON.stringify(body), {
    headers: { "content-type": JSON_TYPE, "x-ratelimit-cost-usd": cost },
  });
}

/** Serves `results` in per_page slices; the cursor is the next offset, the end is the recorded empty page. */
function pagedList(req: MockRequest, results: unknown[], meta: Record<string, unknown>): Response {
  const cursor = req.params.get("cursor") ?? "*";
  const perPage = Math.min(200, Math.max(1, Number(req.params.get("per_page") ?? "25") || 25));
  // Basic paging (`page`, as search_papers and find_author ask) or cursor paging.
  const page1 = req.params.has("page") ? Number(req.params.get("page")) : undefined;
  const offset = page1 !== undefined
    ? (page1 - 1) * perPage
    : cursor === "*"
    ? 0
    : Number(/^mock-(\d+)$/.exec(cursor)?.[1] ?? NaN);
  if (!Number.isFinite(offset) || offset >= results.length) return fixtureResponse(LAST_PAGE, JSON_TYPE);
  const page = results.slice(offset, offset + perPage);
  const next = `mock-${offset + page.length}`;
  return openalexJson(
    { meta: { ...meta, per_page: perPage, next_cursor: next }, results: page, group_by: [] },
    "0.0001",
  );
}

function openalexWorks(req: MockRequest): Response {
  const filter = req.params.get("filter") ?? "";
  if (/DOESNTEXIST/i.test(filter)) {
    return fixtureResponse("openalex/openalexpro__error_400_invalid_filter_field.json", JSON_TYPE, 400);
  }
  const list = JSON.parse(fixtureText("openalex/openalexsdk__works_search_english_africa.json"));
  if (req.params.get("group_by") === "publication_year") return worksPerYear(list.results, filter);
  if (req.params.has("group_by")) {
    return fixtureResponse("openalex/openalexpro__works_group_by_type_2026.json", JSON_TYPE);
  }
  return pagedList(req, list.results, { ...list.meta, page: null });
}

/**
 * `group_by=publication_year` in the recorded group_by shape (openalexpro__works_group_by_type_2026.json),
 * counting the recorded search's works per year within the filter's `publication_year:A-B`; the search text
 * is not matched. Years without works are absent, as OpenAlex leaves them out.
 */
function worksPerYear(works: { publication_year?: number }[], filter: string): Response {
  const range = /publication_year:(\d{4})-(\d{4})/.exec(filter);
  const [from, to] = range ? [Number(range[1]), Number(range[2])] : [0, 9999];
  const counts = new Map<number, number>();
  for (const work of works) {
    const year = work.publication_year;
    if (year !== undefined && year >= from && year <= to) counts.set(year, (counts.get(year) ?? 0) + 1);
  }
  const groups = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([year, count]) => ({ key: String(year), key_display_name: String(year), count }));
  const total = groups.reduce((sum, g) => sum + g.count, 0);
  return openalexJson({
    meta: { count: total, db_response_time_ms: 12, page: null, per_page: 200, groups_count: groups.length },
    group_by: groups,
  }, "0.0001");
}

/** Points a work's location URLs at this mock's /publisher prefix. */
function rewriteLocations(work: Record<string, unknown>, origin: string): void {
  const rewrite = (loc: Record<string, unknown> | null | undefined) => {
    if (!loc) return;
    for (const key of ["landing_page_url", "pdf_url"]) {
      const value = loc[key];
      if (typeof value === "string" && /^https?:\/\//.test(value)) {
        const u = new URL(value);
        loc[key] = `${origin}/publisher/${u.host}${u.pathname}${u.search}`;
      }
    }
  };
  rewrite(work.best_oa_location as Record<string, unknown>);
  rewrite(work.primary_location as Record<string, unknown>);
  for (const loc of (work.locations as Record<string, unknown>[] | undefined) ?? []) rewrite(loc);
}

/** The recorded work whose DOI or PMID is `value` (OpenAlex's `/works/doi:…`, `/works/pmid:…`), else `value`. */
function workByExternalId(kind: string, value: string): string {
  const wanted = decodeURIComponent(value).toLowerCase();
  for (const [id, file] of Object.entries(WORKS)) {
    const ids = JSON.parse(fixtureText(`openalex/${file}`)).ids ?? {};
    const have = String(ids[kind] ?? "").toLowerCase().replace(
      /^https:\/\/(doi\.org|pubmed\.ncbi\.nlm\.nih\.gov)\//,
      "",
    );
    if (have === wanted) return id;
  }
  return value;
}

function openalexWork(req: MockRequest, id: string): Response {
  const file = WORKS[id.toUpperCase()];
  if (!file) {
    return new Response(JSON.stringify({ error: "Not Found", message: `Work ${id} not found` }), { status: 404 });
  }
  const work = JSON.parse(fixtureText(`openalex/${file}`));
  rewriteLocations(work, req.url.origin);
  return openalexJson(work, "0");
}

function openalexTopics(req: MockRequest): Response {
  const list = JSON.parse(fixtureText("openalex/built__topics_list.json"));
  const words = (req.params.get("search") ?? "").toLowerCase().split(/\W+/).filter((w) => w.length > 2);
  const score = (t: { display_name: string }) => words.filter((w) => t.display_name.toLowerCase().includes(w)).length;
  const hits = words.length === 0
    ? list.results
    : list.results.filter((t: { display_name: string }) => score(t) > 0).sort((a: never, b: never) =>
      score(b) - score(a)
    );
  return pagedList(req, hits, { ...list.meta, count: hits.length });
}

export const papersRoutes: MockRoute[] = [
  {
    prefix: "arxiv-api",
    name: "arXiv API query (id_list, cat: search)",
    handle: (req) => req.path === "/query" ? arxivQuery(req) : undefined,
  },
  {
    prefix: "arxiv-web",
    name: "arXiv HTML, abstract pages and PDFs",
    handle: (req) => {
      const page = WEB_PAGES[req.path];
      return page ? fixtureResponse(page[0], page[1]) : notFound(`arxiv.org${req.path}`);
    },
  },
  {
    prefix: "ar5iv",
    name: "ar5iv pages (BUILT)",
    handle: (req) =>
      req.path === "/html/1605.08386"
        ? fixtureResponse("arxiv/ar5iv/built__ar5iv_1605.08386.html", HTML)
        : notFound(`ar5iv${req.path}`),
  },
  {
    prefix: "openalex",
    name: "OpenAlex works, topics, concepts, domains/fields/subfields",
    handle: (req) => {
      const work = /^\/works\/(W\d+)$/i.exec(req.path);
      if (work) return openalexWork(req, work[1]);
      const external = /^\/works\/(doi|pmid):(.+)$/i.exec(req.path);
      if (external) return openalexWork(req, workByExternalId(external[1].toLowerCase(), external[2]));
      if (req.path === "/works") return openalexWorks(req);
      if (req.path === "/topics") return openalexTopics(req);
      if (req.path === "/authors") {
        const list = JSON.parse(fixtureText("openalex/phymes__authors_search_tokuzawa_2026.json"));
        return pagedList(req, list.results, { ...list.meta, count: list.results.length });
      }
      if (req.path === "/institutions") {
        if (!/kyushu/i.test(req.params.get("search") ?? "")) return fixtureResponse(LAST_PAGE, JSON_TYPE);
        return fixtureResponse("openalex/built__institutions_search_kyushu.json", JSON_TYPE);
      }
      if (/^\/topics\/T11636$/i.test(req.path)) {
        return fixtureResponse("openalex/openalexpython__T11636_topic.json", JSON_TYPE);
      }
      if (/^\/concepts\/C71924100$/i.test(req.path)) {
        return fixtureResponse("openalex/openalexpython__C71924100_concept_level0.json", JSON_TYPE);
      }
      const entities = ENTITY_LISTS[req.path];
      if (entities) {
        const list = JSON.parse(fixtureText(`openalex/${entities}`));
        return pagedList(req, list.results, list.meta);
      }
      return undefined;
    },
  },
  {
    prefix: "publisher",
    name: "publisher hosts (a redirect to a private address; nothing else is recorded)",
    handle: (req) =>
      req.path === "/redirect-private"
        ? new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } })
        : notFound(`publisher ${req.path}`),
  },
];
