/**
 * MeSH through E-utilities: ESearch db=mesh for a term, then ESummary db=mesh for the records: heading
 * and entry terms (`DS_MeshTerms`, heading first), scope note, tree numbers (`DS_IdxLinks`), the
 * descriptors a supplementary concept maps to, and earlier indexing.
 */
import { eSummaryDocuments } from "../eutils/root.ts";
import { type ESearchResult, parseESearch } from "../eutils/parse_esearch.ts";
import { type Fetched, fetchEutils } from "../eutils/request.ts";
import { asArray, parseNcbiXml, text, type XmlNode } from "../eutils/xml.ts";
import type { EutilsContext } from "../pubmed/client.ts";

export interface MeshRecord {
  /** Entrez uid: 68 + the descriptor number for descriptors (68003920 = D003920), 67 for supplementary concepts. */
  uid: string;
  /** D003920 / C… built from the uid when it follows that pattern. */
  ui?: string;
  heading: string;
  entryTerms: string[];
  scopeNote?: string;
  treeNumbers: string[];
  /** Uids of the headings a supplementary concept is indexed under. */
  mappedTo: string[];
  previousIndexing: string[];
}

export async function searchMesh(ctx: EutilsContext, term: string, retmax: number): Promise<Fetched<ESearchResult>> {
  const params = { db: "mesh", term, retmax, retmode: "xml" };
  return await fetchEutils(
    ctx.upstream,
    { path: "/esearch.fcgi", params, signal: ctx.signal },
    parseESearch,
    "INVALID_INPUT",
  );
}

export async function meshSummaries(ctx: EutilsContext, uids: readonly string[]): Promise<Fetched<MeshRecord[]>> {
  const params = { db: "mesh", id: uids.join(","), version: "2.0" };
  return await fetchEutils(ctx.upstream, { path: "/esummary.fcgi", params, signal: ctx.signal }, parseMeshSummaries);
}

export function parseMeshSummaries(xml: string, url: string): MeshRecord[] {
  const doc = parseNcbiXml(xml, url, ["DocumentSummary", "string", "int", "LinksType"]);
  const docs = eSummaryDocuments(doc, url, () => "Retry shortly; NCBI may be degraded.");
  return docs.filter((d) => !text(d.error)).map(toRecord);
}

function toRecord(d: XmlNode): MeshRecord {
  const uid = text(d["@_uid"]);
  const terms = strings(d.DS_MeshTerms);
  const links = asArray((d.DS_IdxLinks as XmlNode | undefined)?.LinksType) as XmlNode[];
  const scope = text(d.DS_ScopeNote).trim();
  const prefix = { "68": "D", "67": "C" }[uid.slice(0, 2)];
  return {
    uid,
    ...(prefix && uid.length === 8 ? { ui: `${prefix}${uid.slice(2)}` } : {}),
    heading: terms[0] ?? "",
    entryTerms: terms.slice(1),
    ...(scope ? { scopeNote: scope } : {}),
    treeNumbers: links.map((l) => text(l.TreeNum).trim()).filter((t) => t && !t.startsWith("@")),
    mappedTo: asArray((d.DS_HeadingMappedToList as XmlNode | undefined)?.int).map(text).filter(Boolean),
    previousIndexing: strings(d.DS_PreviousIndexing),
  };
}

function strings(node: unknown): string[] {
  return asArray((node as XmlNode | undefined)?.string).map((s) => text(s).trim()).filter(Boolean);
}
