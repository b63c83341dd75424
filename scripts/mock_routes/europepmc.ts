/**
 * Mock upstream routes for Europe PMC (/europepmc), replaying the recorded bodies of fixtures/europepmc.
 * Deliberate liberties (named in that folder's PROVENANCE): keyword searches are served from one recorded
 * query ("cancer") whatever the words — the first page from the recorded core page, later pages (cursor
 * `mock-N`) and `SRC:PPR` searches as slices of the recorded 1,000-record lite page —, and a lookup by
 * `DOI:"…"`, `PMCID:…` or `EXT_ID:… AND SRC:…` answers with the recorded record that carries that id,
 * wrapped in a search answer (the recorded empty answer when none does).
 */
import { fixtureResponse, fixtureText, type MockRequest, type MockRoute } from "./types.ts";

const JSON_TYPE = "application/json;charset=UTF-8";
const DIR = "europepmc";
const CORE = `${DIR}/pyeuropepmc__search_cancer_core.json`;
const LITE = `${DIR}/pyeuropepmc__search_cancer_lite_1000.json`;
const EMPTY = `${DIR}/pyeuropepmc__search_no_results.json`;
const AGRICOLA = `${DIR}/pyeuropepmc__search_immunotherapy_agricola.json`;
const RETRACTED = `${DIR}/evidencemcp__search_core_EXT_ID_39466770_retracted.cassette.json`;

/** Full texts recorded, by id. */
const FULL_TEXTS: Record<string, string> = {
  PMC3258128: `${DIR}/pyeuropepmc__PMC3258128_fullTextXML.xml`,
};

type Rec = Record<string, unknown>;

function answer(body: unknown): Response {
  return new Response(JSON.stringify(body), { headers: { "content-type": JSON_TYPE } });
}

function search(req: MockRequest): Response | undefined {
  if (req.path !== "/search") return undefined;
  const query = req.params.get("query") ?? "";
  const size = Math.min(1000, Math.max(1, Number(req.params.get("pageSize") ?? "25") || 25));
  const cursor = req.params.get("cursorMark") ?? "*";
  if (/EXT_ID:39466770\b/.test(query)) {
    return new Response(JSON.parse(fixtureText(RETRACTED)).body, { headers: { "content-type": JSON_TYPE } });
  }
  const ext = /EXT_ID:(\S+) AND SRC:(\w+)/i.exec(query);
  if (ext) return byField((r) => r.id === ext[1] && r.source === ext[2].toUpperCase());
  const pmcid = /PMCID:(PMC\d+)/i.exec(query)?.[1]?.toUpperCase();
  if (pmcid) return byField((r) => r.pmcid === pmcid);
  const doi = /DOI:"?([^"\s)]+)"?/i.exec(query)?.[1]?.toLowerCase();
  if (doi) return byField((r) => String(r.doi ?? "").toLowerCase() === doi);
  if (/immunotherapy/i.test(query)) return fixtureResponse(AGRICOLA, JSON_TYPE);
  if (/^[a-z]{20,}$/i.test(query.trim())) return fixtureResponse(EMPTY, JSON_TYPE);
  const lite = JSON.parse(fixtureText(LITE));
  const preprintsOnly = /SRC:PPR/i.test(query);
  if (cursor === "*" && !preprintsOnly) {
    const core = JSON.parse(fixtureText(CORE));
    const records = core.resultList.result.slice(0, size);
    return answer({ ...core, nextCursorMark: `mock-${records.length}`, resultList: { result: records } });
  }
  const all = (lite.resultList.result as Rec[]).filter((r) => !preprintsOnly || r.source === "PPR");
  const start = cursor === "*" ? 0 : Number(/^mock-(\d+)$/.exec(cursor)?.[1] ?? all.length);
  const records = all.slice(start, start + size);
  const end = start + records.length;
  return answer({
    ...lite,
    hitCount: preprintsOnly ? all.length : lite.hitCount,
    nextCursorMark: end < all.length ? `mock-${end}` : cursor,
    resultList: { result: records },
  });
}

/** The first recorded record (core page, then lite page) that `match` accepts, as a one-hit answer. */
function byField(match: (r: Rec) => boolean): Response {
  const pools = [CORE, LITE].map((f) => JSON.parse(fixtureText(f)).resultList.result as Rec[]);
  const found = pools.flat().find(match);
  if (!found) return fixtureResponse(EMPTY, JSON_TYPE);
  return answer({ version: "6.9", hitCount: 1, resultList: { result: [found] } });
}

function fullText(req: MockRequest): Response | undefined {
  const id = /^\/([A-Za-z0-9]+)\/fullTextXML$/.exec(req.path)?.[1];
  if (!id) return undefined;
  const file = FULL_TEXTS[id.toUpperCase()];
  return file ? fixtureResponse(file, "application/xml") : new Response(null, { status: 404 });
}

export const europepmcRoutes: readonly MockRoute[] = [
  { prefix: "europepmc", name: "Europe PMC search (recorded pages, sliced)", handle: search },
  { prefix: "europepmc", name: "Europe PMC fullTextXML", handle: fullText },
];
