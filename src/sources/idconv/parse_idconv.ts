/**
 * PMC ID Converter answers (format=json; pmc.ncbi.nlm.nih.gov/tools/id-converter-api): `{status,
 * responseDate, request, records: [{requested-id, pmcid, pmid, doi, mid?, versions?} | {requested-id,
 * status: "error", errmsg}]}`. PMIDs arrive as numbers or strings (both are seen) and become strings; a
 * record without `requested-id` (older answers) is matched by the id it carries.
 */
import { UpstreamError } from "../../core/errors.ts";
import type { IdRecord } from "./types.ts";

type Json = Record<string, unknown>;

function str(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

/**
 * @throws UpstreamError (kind "parse") for a body that is not the converter's JSON, or a request-level error.
 */
export function parseIdconv(body: string, url: string): IdRecord[] {
  let json: Json;
  try {
    json = JSON.parse(body) as Json;
  } catch (cause) {
    throw fault(url, `a body that is not JSON (${JSON.stringify(body.slice(0, 80))})`, cause);
  }
  if (!json || typeof json !== "object") throw fault(url, "JSON that is not an object");
  if (json.status === "error" || !Array.isArray(json.records)) {
    throw fault(url, `an error: ${str(json.message) ?? str(json.errmsg) ?? "no records list"}`);
  }
  return (json.records as Json[]).filter((r) => r && typeof r === "object").map((r) => {
    const pmcid = str(r.pmcid);
    const record: IdRecord = {
      requestedId: str(r["requested-id"]) ?? str(r.pmcid) ?? str(r.pmid) ?? str(r.doi) ?? "",
      ...(str(r.pmid) ? { pmid: str(r.pmid) } : {}),
      ...(pmcid ? { pmcid: pmcid.toUpperCase() } : {}),
      ...(str(r.doi) ? { doi: str(r.doi) } : {}),
      ...(str(r.mid) ? { mid: str(r.mid) } : {}),
    };
    if (r.status === "error" || str(r.errmsg)) record.error = str(r.errmsg) ?? "not converted";
    return record;
  });
}

function fault(url: string, what: string, cause?: unknown): UpstreamError {
  return new UpstreamError({
    kind: "parse",
    upstream: "ncbi-idconv",
    url,
    message: `The PMC ID Converter sent ${what} for ${url}`,
    cause,
  });
}
