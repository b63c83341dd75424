/**
 * Mock upstream routes for PubChem PUG REST (under /pubchem, i.e. PUBCHEM_BASE_URL=http://host:port/pubchem),
 * answering from fixtures/pubchem. The mock world is small and consistent: aspirin (CID 2244) and ibuprofen
 * (3672) have full property records, aspirin has synonyms and cross-references (its PubMedIDs are PMIDs the
 * PubMed mock serves), substance SID 4594 maps to aspirin, and BioAssay AID 1851 is listed for CYP3A4.
 * Identifiers outside it get PubChem's recorded NotFound fault (similarity and identity searches find only
 * aspirin); an unbalanced SMILES gets BadRequest.
 * Searching by CID 241 (benzene) times out on the fast endpoint, exercising the asynchronous ListKey flow.
 * Aspirin has a PNG depiction (built, both sizes) and bioassay results whose targets have gene summaries; acetic
 * acid (CID 176) has the GHS classification cut from its recorded PUG-View record, and other CIDs get PUG-View's
 * NotFound fault.
 */
import { fixtureResponse, fixtureText, type MockRequest, type MockRoute } from "./types.ts";

const JSON_TYPE = "application/json";
const NOT_FOUND = "pubchem/metmashr__fault_name_no_hit_cids.json";
const ASPIRIN_SMILES = "CC(=O)OC1=CC=CC=C1C(=O)O";
const LIST_KEY = "3318153796219856547";
/** Queries that make the fast search time out, so clients take the ListKey path. */
const SLOW_QUERY = "241";

const NAMES: Record<string, number> = {
  "aspirin": 2244,
  "acetylsalicylic acid": 2244,
  "2-acetyloxybenzoic acid": 2244,
  "50-78-2": 2244,
  "ibuprofen": 3672,
};

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body, null, 2), { status, headers: { "content-type": JSON_TYPE } });
}

function fixture(name: string, status = 200): Response {
  return fixtureResponse(`pubchem/${name}`, JSON_TYPE, status);
}

function notFound(): Response {
  return fixtureResponse(NOT_FOUND, JSON_TYPE, 404);
}

function cids(list: number[]): Response {
  return json({ IdentifierList: { CID: list } });
}

/** An identifier from the path (`…/name/aspirin/cids/JSON`) or, for POST, from the form field. */
function identifier(req: MockRequest, fromPath: string | undefined, key: string): string {
  return fromPath ? decodeURIComponent(fromPath) : req.params.get(key) ?? "";
}

function balanced(smiles: string): boolean {
  let depth = 0;
  for (const ch of smiles) {
    depth += ch === "(" ? 1 : ch === ")" ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
}

function lookup(req: MockRequest): Response | undefined {
  const m = /^\/pug\/compound\/(name|smiles|inchikey)(?:\/([^/]+))?\/cids\/JSON$/.exec(req.path);
  if (!m) return undefined;
  const value = identifier(req, m[2], m[1]);
  if (m[1] === "name") return NAMES[value.toLowerCase()] ? cids([NAMES[value.toLowerCase()]]) : notFound();
  if (m[1] === "inchikey") return value === "BSYNRYMUTXBXSQ-UHFFFAOYSA-N" ? cids([2244]) : notFound();
  if (!balanced(value)) return fixture("built__fault_bad_request_smiles.json", 400);
  return value === ASPIRIN_SMILES ? cids([2244]) : fixture("built__identifierlist_cid_0_no_match.json");
}

/** Rows by CID: the 2025-names record for aspirin/ibuprofen, the pre-2025 recording for triclosan. */
function propertyRows(): Map<number, Record<string, unknown>> {
  const rows = new Map<number, Record<string, unknown>>();
  for (const file of ["webchem__property_cid5564_all.json", "built__property_cids_2244_3672_2025_names.json"]) {
    const doc = JSON.parse(fixtureText(`pubchem/${file}`));
    for (const row of doc.PropertyTable.Properties) rows.set(row.CID, row);
  }
  return rows;
}

const OLD_NAMES: Record<string, string> = { SMILES: "IsomericSMILES", ConnectivitySMILES: "CanonicalSMILES" };

function properties(req: MockRequest): Response | undefined {
  const m = /^\/pug\/compound\/cid\/(?:([\d,]+)\/)?property\/([\w,]+)\/JSON$/.exec(req.path);
  if (!m) return undefined;
  const ids = (m[1] ?? req.params.get("cid") ?? "").split(",").map(Number).filter((n) => n > 0);
  const names = m[2].split(",");
  const rows = propertyRows();
  const out = ids.filter((id) => rows.has(id)).map((id) => {
    const row = rows.get(id)!;
    const picked: Record<string, unknown> = { CID: id };
    for (const name of names) {
      const key = name in row ? name : OLD_NAMES[name];
      if (key && key in row) picked[key] = row[key];
    }
    return picked;
  });
  return out.length ? json({ PropertyTable: { Properties: out } }) : notFound();
}

function compoundInfo(req: MockRequest): Response | undefined {
  const synonyms = /^\/pug\/compound\/cid\/(\d+)\/synonyms\/JSON$/.exec(req.path);
  if (synonyms) return synonyms[1] === "2244" ? fixture("webchem__synonyms_name_aspirin.json") : notFound();
  const xrefs = /^\/pug\/compound\/cid\/(\d+)\/xrefs\/([\w,]+)\/JSON$/.exec(req.path);
  if (!xrefs) return undefined;
  const file = xrefs[1] === "2244" ? "built__xrefs_cid_2244.json" : "pubchemcrawler__xrefs_RN_cid135398570.json";
  const info = JSON.parse(fixtureText(`pubchem/${file}`)).InformationList.Information
    .find((i: { CID: number }) => String(i.CID) === xrefs[1]);
  if (!info) return notFound();
  const picked: Record<string, unknown> = { CID: info.CID };
  for (const type of xrefs[2].split(",")) if (info[type]) picked[type] = info[type];
  return json({ InformationList: { Information: [picked] } });
}

function searches(req: MockRequest): Response | undefined {
  const listKey = /^\/pug\/compound\/listkey\/([^/]+)\/cids\/JSON$/.exec(req.path);
  if (listKey) return listKey[1] === LIST_KEY ? fixture("built__listkey_cids.json") : notFound();
  const m =
    /^\/pug\/compound\/(fast)?(substructure|superstructure|identity|similarity_2d|similarity|formula)\/(?:(smiles|cid)(?:\/([^/]+))?|([^/]+))\/cids\/JSON$/
      .exec(req.path);
  if (!m) return undefined;
  const [, fast, kind, queryType, pathQuery, formula] = m;
  const query = formula ?? identifier(req, pathQuery, queryType ?? "");
  if (queryType === "smiles" && !balanced(query)) return fixture("built__fault_bad_request_smiles.json", 400);
  if (!fast) return fixture("built__waiting_listkey.json", 202);
  if (queryType === "cid" && query === SLOW_QUERY) return fixture("built__fault_timeout.json", 504);
  if (kind === "formula") return query === "C9H8O4" ? fixture("built__fastformula_cids_C9H8O4.json") : notFound();
  const aspirin = query === "2244" || query === ASPIRIN_SMILES;
  if (kind === "similarity_2d") return aspirin ? fixture("built__fastsimilarity_2d_cids_2244.json") : notFound();
  if (kind === "identity") return aspirin ? cids([2244]) : notFound();
  return fixture("built__fastsubstructure_cids_benzoic_acid.json");
}

function substances(req: MockRequest): Response | undefined {
  const m = /^\/pug\/substance\/sid\/(\d+)\/(dates\/)?JSON$/.exec(req.path);
  if (!m) return undefined;
  if (m[1] !== "4594") return notFound();
  return fixture(m[2] ? "built__substance_dates_sid_4594.json" : "built__substance_sid_4594.json");
}

function assays(req: MockRequest): Response | undefined {
  const aid = /^\/pug\/assay\/aid\/(\d+)\/(summary|targets\/[\w,]+)\/JSON$/.exec(req.path);
  if (aid) {
    if (aid[1] !== "1851") return notFound();
    return fixture(aid[2] === "summary" ? "built__assay_summary_aid_1851.json" : "built__assay_targets_aid_1851.json");
  }
  const target = /^\/pug\/assay\/target\/(genesymbol|proteinname)(?:\/([^/]+))?\/aids\/JSON$/.exec(req.path);
  if (!target) return undefined;
  const query = identifier(req, target[2], target[1]).toLowerCase();
  const known = target[1] === "genesymbol" ? query === "cyp3a4" : /3a4/.test(query);
  return known ? fixture("built__assay_target_genesymbol_CYP3A4_aids.json") : notFound();
}

function depiction(req: MockRequest): Response | undefined {
  const m = /^\/pug\/compound\/cid\/(\d+)\/PNG$/.exec(req.path);
  if (!m) return undefined;
  if (m[1] !== "2244") return notFound();
  const size = req.params.get("image_size") === "small" ? "small" : "large";
  return fixtureResponse(`pubchem/built__png_cid_2244_${size}.png`, "image/png");
}

function pugView(req: MockRequest): Response | undefined {
  const m = /^\/pug_view\/data\/compound\/(\d+)\/JSON$/.exec(req.path);
  if (!m) return undefined;
  if (m[1] === "176" && req.params.get("heading") === "GHS Classification") {
    return fixture("built__pugview_ghs_cid176.json");
  }
  return fixture("built__pugview_fault_not_found.json", 404);
}

function bioactivity(req: MockRequest): Response | undefined {
  const summary = /^\/pug\/compound\/cid\/(\d+)\/assaysummary\/JSON$/.exec(req.path);
  if (summary) return summary[1] === "2244" ? fixture("built__assaysummary_cid_2244.json") : notFound();
  const genes = /^\/pug\/gene\/geneid\/([\d,]+)\/summary\/JSON$/.exec(req.path);
  if (!genes) return undefined;
  const wanted = new Set(genes[1].split(",").map(Number));
  const all = JSON.parse(fixtureText("pubchem/built__gene_summary_aspirin_targets.json")).GeneSummaries.GeneSummary;
  const found = all.filter((g: { GeneID: number }) => wanted.has(g.GeneID));
  return found.length ? json({ GeneSummaries: { GeneSummary: found } }) : notFound();
}

const HANDLERS = [lookup, properties, compoundInfo, searches, substances, assays, depiction, pugView, bioactivity];

export const pubchemRoutes: MockRoute[] = [{
  prefix: "pubchem",
  name: "PubChem PUG REST and PUG-View (compounds, searches, substances, assays, images, GHS)",
  handle(req) {
    for (const handler of HANDLERS) {
      const response = handler(req);
      if (response) return response;
    }
    return undefined;
  },
}];
