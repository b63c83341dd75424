/**
 * The one way the PubChem adapter talks to PUG REST: every request goes through `ctx.upstream` (pacing
 * at 5/s and 400/min, X-Throttling-Control slow-down, retries, caching and coalescing live there) and
 * every failure PubChem explains is mapped by {@link mapPubChemError}. No MCP types here.
 */
import type { ToolContext } from "../../context.ts";
import type { ServiceRequest } from "../../upstreams/mod.ts";
import { type FaultContext, faultInBody, mapPubChemError } from "./faults.ts";
import { readFault } from "./pug_json.ts";

export type PubChemContext = Pick<ToolContext, "upstream" | "signal" | "clock" | "progress" | "log">;

const HOUR = 3_600_000;
/** Cache lifetimes: deposited records and computed properties change rarely; search hit lists more often. */
export const TTL = { record: 7 * 24 * HOUR, lookup: 24 * HOUR, search: HOUR, never: 0 } as const;

/**
 * Identifiers that can sit in a URL path as they are; anything else (`/ # + ?`, spaces, and dot-only
 * segments that URL resolution would collapse) goes in a POST body.
 */
const PATH_SAFE = /^(?!\.+$)[A-Za-z0-9._-]+$/;

export type PugRequest = Pick<ServiceRequest, "path" | "query" | "form" | "method" | "ttlMs">;

/**
 * Places an identifier in the path (`<base>/<value><suffix>`) when that is safe, else in the form body
 * (`POST <base><suffix>` with `<key>=<value>`), which is how PUG REST takes SMILES, InChI and odd names.
 */
export function placeIdentifier(
  base: string,
  key: string,
  value: string,
  suffix: string,
  options: { alwaysPost?: boolean } = {},
): PugRequest {
  if (!options.alwaysPost && PATH_SAFE.test(value)) return { path: `${base}/${encodeURIComponent(value)}${suffix}` };
  return { path: `${base}${suffix}`, method: "POST", form: { [key]: value } };
}

export interface PugAnswer {
  text: string;
  /** Credential-free URL of the request, for messages. */
  url: string;
  status: number;
  /** Served from the pipeline's cache rather than by PubChem just now. */
  fromCache: boolean;
}

/** Runs one PUG REST request; a Fault, in an error or (rarely) in a 200 body, becomes a ToolError. */
export async function pugRequest(ctx: PubChemContext, request: PugRequest, fault: FaultContext): Promise<PugAnswer> {
  let answer;
  try {
    answer = await pugSend(ctx, request);
  } catch (error) {
    throw mapPubChemError(error, fault);
  }
  const bodyFault = readFault(answer.text);
  if (bodyFault) throw faultInBody(bodyFault, fault);
  return answer;
}

/** One request, failures unmapped: for callers that react to a particular fault (a search timing out). */
export async function pugSend(ctx: PubChemContext, request: PugRequest): Promise<PugAnswer> {
  const response = await ctx.upstream.request({
    upstream: "pubchem",
    accept: "application/json",
    signal: ctx.signal,
    ...request,
  });
  return { text: response.text(), url: response.url, status: response.status, fromCache: response.fromCache };
}

/** The PNG depiction URL of a compound, built without a request (base URL from config, nothing secret in it). */
export function compoundImageUrl(ctx: Pick<ToolContext, "upstream">, cid: number, size: "small" | "large"): string {
  return ctx.upstream.describe({
    upstream: "pubchem",
    path: `/pug/compound/cid/${cid}/PNG`,
    query: { image_size: size },
  });
}
