/**
 * Structure, similarity and formula searches. The synchronous "fast" searches answer most queries at
 * once; when one times out (`PUGREST.Timeout`, HTTP 504) the same search is submitted to the
 * asynchronous endpoint, which answers `{"Waiting":{"ListKey":…}}`, and the ListKey is polled through
 * the same paced pipeline, sleeping on the injected clock between polls and reporting progress.
 */
import { ToolError } from "../../core/errors.ts";
import {
  placeIdentifier,
  type PubChemContext,
  type PugAnswer,
  type PugRequest,
  pugRequest,
  pugSend,
  TTL,
} from "./client.ts";
import { type FaultContext, faultInBody, isTimeout, mapPubChemError } from "./faults.ts";
import { parseIdentifierAnswer } from "./parse_identifiers.ts";
import { readFault } from "./pug_json.ts";

/** Spacing of ListKey polls, and how many before giving up (about a minute in all). */
export const POLL_INTERVAL_MS = 2_000;
export const MAX_POLLS = 30;

export type StructureSearchType = "substructure" | "superstructure" | "identity";
export type QueryType = "smiles" | "cid";

interface SearchSpec {
  /** Namespace of the synchronous search, e.g. `fastsubstructure/smiles` or `fastformula`. */
  fast: string;
  /** Namespace of the asynchronous search, e.g. `substructure/smiles` or `formula`. */
  slow: string;
  /** Form key when the query goes in a POST body (`smiles`, `formula`). */
  key: string;
  query: string;
  alwaysPost: boolean;
  options: Record<string, string | number | boolean>;
  maxRecords: number;
  fault: FaultContext;
}

export function structureSearch(
  ctx: PubChemContext,
  args: { searchType: StructureSearchType; queryType: QueryType; query: string; maxRecords: number },
): Promise<number[]> {
  return searchCids(ctx, {
    fast: `fast${args.searchType}/${args.queryType}`,
    slow: `${args.searchType}/${args.queryType}`,
    key: args.queryType,
    query: args.query,
    alwaysPost: args.queryType === "smiles",
    options: { MaxRecords: args.maxRecords },
    maxRecords: args.maxRecords,
    fault: {
      notFound: `No PubChem compound is a ${args.searchType} match for ${args.queryType} '${args.query}'`,
      notFoundHint: "Check the structure, try another searchType, or use search_compounds_by_similarity.",
      field: "query",
      value: args.query,
    },
  });
}

export function similaritySearch(
  ctx: PubChemContext,
  args: { queryType: QueryType; query: string; threshold: number; maxRecords: number },
): Promise<number[]> {
  return searchCids(ctx, {
    fast: `fastsimilarity_2d/${args.queryType}`,
    slow: `similarity/${args.queryType}`,
    key: args.queryType,
    query: args.query,
    alwaysPost: args.queryType === "smiles",
    options: { Threshold: args.threshold, MaxRecords: args.maxRecords },
    maxRecords: args.maxRecords,
    fault: {
      notFound: `No PubChem compound reaches Tanimoto ${args.threshold} against ${args.queryType} '${args.query}'`,
      notFoundHint: "Lower 'threshold' (down to 70) or check the query structure.",
      field: "query",
      value: args.query,
    },
  });
}

export function formulaSearch(
  ctx: PubChemContext,
  args: { formula: string; allowOtherElements: boolean; maxRecords: number },
): Promise<number[]> {
  return searchCids(ctx, {
    fast: "fastformula",
    slow: "formula",
    key: "formula",
    query: args.formula,
    alwaysPost: false,
    options: { AllowOtherElements: args.allowOtherElements, MaxRecords: args.maxRecords },
    maxRecords: args.maxRecords,
    fault: {
      notFound: `No PubChem compound has formula ${args.formula}`,
      notFoundHint: "Check the formula (Hill order, e.g. 'C9H8O4') or set allowOtherElements to true.",
      field: "formula",
      value: args.formula,
    },
  });
}

async function searchCids(ctx: PubChemContext, spec: SearchSpec): Promise<number[]> {
  const place = (namespace: string): PugRequest =>
    placeIdentifier(`/pug/compound/${namespace}`, spec.key, spec.query, "/cids/JSON", { alwaysPost: spec.alwaysPost });
  let answer: PugAnswer | undefined;
  try {
    answer = await pugSend(ctx, { ...place(spec.fast), query: spec.options, ttlMs: TTL.search });
  } catch (error) {
    if (!isTimeout(error)) throw mapPubChemError(error, spec.fault);
  }
  const fastFault = answer && readFault(answer.text);
  if (fastFault && fastFault.code !== "PUGREST.Timeout") throw faultInBody(fastFault, spec.fault);
  if (!answer || fastFault) {
    ctx.log.info("PubChem fast search timed out; submitting the asynchronous search", { namespace: spec.slow });
    answer = await pugRequest(ctx, { ...place(spec.slow), query: spec.options, ttlMs: TTL.never }, spec.fault);
  }
  let parsed = parseIdentifierAnswer(answer.text, answer.url, "CID");
  if (parsed.kind === "waiting" && answer.fromCache) {
    // A remembered Waiting answer names a ListKey that may have expired: ask afresh.
    answer = await pugRequest(ctx, { ...place(spec.fast), query: spec.options, ttlMs: TTL.never }, spec.fault);
    parsed = parseIdentifierAnswer(answer.text, answer.url, "CID");
  }
  const ids = parsed.kind === "ids" ? parsed.ids : await pollListKey(ctx, parsed.listKey, spec);
  if (ids.length === 0) throw new ToolError("ENTITY_NOT_FOUND", `${spec.fault.notFound}.`, spec.fault.notFoundHint);
  return ids.slice(0, spec.maxRecords);
}

/** Polls `compound/listkey/<key>/cids/JSON` until PubChem stops answering Waiting, or gives up. */
async function pollListKey(ctx: PubChemContext, listKey: string, spec: SearchSpec): Promise<number[]> {
  for (let poll = 1; poll <= MAX_POLLS; poll++) {
    await ctx.clock.sleep(POLL_INTERVAL_MS, ctx.signal);
    await ctx.progress(poll, MAX_POLLS, `PubChem search still running (ListKey ${listKey}), poll ${poll}`);
    const answer = await pugRequest(ctx, {
      path: `/pug/compound/listkey/${encodeURIComponent(listKey)}/cids/JSON`,
      query: { listkey_count: spec.maxRecords },
      ttlMs: TTL.never,
    }, spec.fault);
    const parsed = parseIdentifierAnswer(answer.text, answer.url, "CID");
    if (parsed.kind === "ids") return parsed.ids;
  }
  throw new ToolError(
    "UPSTREAM_ERROR",
    `PubChem's search (ListKey ${listKey}) was still running after ${MAX_POLLS} polls ` +
      `(${(MAX_POLLS * POLL_INTERVAL_MS) / 1000} s).`,
    "Narrow the search (a more specific structure, a higher threshold, a smaller maxRecords) or retry later.",
  );
}
