/**
 * Compound requests: identifier → CIDs, batched property tables, synonyms and cross-references.
 */
import { ToolError } from "../../core/errors.ts";
import { placeIdentifier, type PubChemContext, type PugRequest, pugRequest, TTL } from "./client.ts";
import { parseIdentifierAnswer } from "./parse_identifiers.ts";
import { parseSynonyms, parseXrefs } from "./parse_information.ts";
import { parsePropertyTable, upstreamPropertyNames } from "./parse_properties.ts";
import type { CompoundProperties, CompoundProperty, XrefType } from "./types.ts";

export type IdentifierType = "name" | "smiles" | "inchikey";

/** CIDs per POST body; well inside PubChem's limits and small enough for one paced request each. */
export const PROPERTY_CHUNK = 200;
/** Up to this many CIDs go in the URL path (readable logs, shared cache entries); more go in a POST body. */
const PATH_CIDS_MAX = 20;

export async function lookupCids(ctx: PubChemContext, type: IdentifierType, identifier: string): Promise<number[]> {
  const request = placeIdentifier(`/pug/compound/${type}`, type, identifier, "/cids/JSON", {
    alwaysPost: type === "smiles",
  });
  const notFound = {
    notFound: `No PubChem compound matches ${type} '${identifier}'`,
    notFoundHint: type === "name"
      ? "Check the spelling or try a synonym, a SMILES (identifierType 'smiles') or an InChIKey."
      : "Check the identifier; for a structure not in PubChem try search_compounds_by_similarity.",
    field: "identifier",
    value: identifier,
  };
  const answer = await pugRequest(ctx, { ...request, ttlMs: TTL.lookup }, notFound);
  const parsed = parseIdentifierAnswer(answer.text, answer.url, "CID");
  if (parsed.kind === "waiting" || parsed.ids.length === 0) {
    throw new ToolError("ENTITY_NOT_FOUND", `${notFound.notFound}.`, notFound.notFoundHint);
  }
  return parsed.ids;
}

export interface PropertyBatch {
  /** One row per distinct requested CID, in request order; unknown CIDs carry only `CID`. */
  rows: CompoundProperties[];
  notFound: number[];
  /** Rows that did not match the expected shape (kept as far as they read). */
  warnings: string[];
}

/** Property tables for many CIDs: one request per chunk of {@link PROPERTY_CHUNK}, never one per CID. */
export async function fetchProperties(
  ctx: PubChemContext,
  cids: readonly number[],
  properties: readonly CompoundProperty[],
): Promise<PropertyBatch> {
  const unique = [...new Set(cids)];
  const names = upstreamPropertyNames(properties).join(",");
  const chunks: number[][] = [];
  for (let i = 0; i < unique.length; i += PROPERTY_CHUNK) chunks.push(unique.slice(i, i + PROPERTY_CHUNK));
  let done = 0;
  const found = new Map<number, CompoundProperties>();
  const warnings: string[] = [];
  await Promise.all(chunks.map(async (chunk) => {
    const request: PugRequest = chunk.length <= PATH_CIDS_MAX
      ? { path: `/pug/compound/cid/${chunk.join(",")}/property/${names}/JSON` }
      : { path: `/pug/compound/cid/property/${names}/JSON`, method: "POST", form: { cid: chunk.join(",") } };
    try {
      const answer = await pugRequest(ctx, { ...request, ttlMs: TTL.record }, {
        notFound: `No PubChem compound for CID ${chunk.join(", ")}`,
        notFoundHint: "Check the CIDs; resolve names with search_compound_by_identifier.",
        field: "cids",
        value: chunk,
      });
      for (const row of parsePropertyTable(answer.text, answer.url, properties, warnings)) found.set(row.CID, row);
    } catch (error) {
      // A chunk where no CID exists is answered 404; those CIDs are reported below, not dropped.
      if (!(error instanceof ToolError && error.code === "ENTITY_NOT_FOUND")) throw error;
    }
    if (chunks.length > 1) await ctx.progress(++done, chunks.length, `PubChem properties: ${done}/${chunks.length}`);
  }));
  const notFound = unique.filter((cid) => !found.has(cid));
  return { rows: unique.map((cid) => found.get(cid) ?? { CID: cid }), notFound, warnings };
}

/** Synonyms of one compound, best first; an empty list when PubChem holds none. */
export async function fetchSynonyms(ctx: PubChemContext, cid: number): Promise<string[]> {
  try {
    const answer = await pugRequest(ctx, { path: `/pug/compound/cid/${cid}/synonyms/JSON`, ttlMs: TTL.record }, {
      notFound: `PubChem has no synonyms for CID ${cid}`,
      notFoundHint: "Use the compound's properties instead (fetch_compound_properties).",
      field: "cid",
      value: cid,
    });
    return parseSynonyms(answer.text, answer.url, cid);
  } catch (error) {
    if (error instanceof ToolError && error.code === "ENTITY_NOT_FOUND") return [];
    throw error;
  }
}

export async function fetchXrefs(
  ctx: PubChemContext,
  cid: number,
  types: readonly XrefType[],
): Promise<Record<string, (string | number)[]>> {
  const answer = await pugRequest(ctx, {
    path: `/pug/compound/cid/${cid}/xrefs/${types.join(",")}/JSON`,
    ttlMs: TTL.record,
  }, {
    notFound: `PubChem has no ${types.join("/")} cross-references for CID ${cid} (or no such compound)`,
    notFoundHint: "Check the CID with fetch_compound_properties, or ask for other xrefTypes (e.g. RN, RegistryID).",
    field: "xrefTypes",
    value: types,
  });
  return parseXrefs(answer.text, answer.url, cid, types);
}
