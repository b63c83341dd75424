/**
 * Turns the `organism` a caller gives (common name, scientific name, `9606`, `NCBITaxon:9606`) into an
 * Entrez filter `txid<id>[Organism:exp]`.
 *
 * How an unknown organism is detected: names and ids in the built-in table cost no request; anything
 * else is looked up in NCBI Taxonomy once (ESearch `"<name>"[All Names]` for names, ESummary for ids),
 * cached for a day. The gene search itself cannot be trusted for this: ESearch drops a phrase it cannot
 * find and still runs the rest of the query (see the PhraseNotFound recording), so an unknown organism
 * would silently search every organism.
 */
import { ToolError } from "../../../core/errors.ts";
import type { ServiceUpstream } from "../../../upstreams/mod.ts";
import { parseESearch } from "../eutils/parse_esearch.ts";
import { eutilsRequest } from "../eutils/request.ts";
import { eSummaryDocuments } from "../eutils/root.ts";
import { parseNcbiXml, text } from "../eutils/xml.ts";
import { parseComplete, RECORD_TTL_MS } from "./client.ts";
import { knownOrganism } from "./organisms.ts";

export interface ResolvedOrganism {
  taxonId: string;
  /** Entrez filter to AND with the gene query. */
  filter: string;
}

export const ORGANISM_FORMS =
  "a common name (human, mouse, rat, zebrafish, fly, worm, yeast, chicken, frog, dog, cow, pig, arabidopsis, " +
  "e. coli, …), a scientific name (Homo sapiens), or an NCBI Taxonomy id (9606 or NCBITaxon:9606)";

const NAME = /^[A-Za-z][A-Za-z0-9 .,'\/-]{0,99}$/;

export async function resolveOrganism(
  upstream: ServiceUpstream,
  organism: string,
  signal?: AbortSignal,
): Promise<ResolvedOrganism> {
  const input = organism.trim();
  const taxon = input.match(/^(?:NCBITaxon:|taxon:|txid)?(\d{1,10})$/i)?.[1];
  const known = knownOrganism(taxon ?? input);
  if (known) return resolved(known.taxonId);
  if (taxon) {
    if (await taxonExists(upstream, taxon, signal)) return resolved(taxon);
    throw unknownOrganism(organism, `NCBI Taxonomy has no taxon ${taxon}`);
  }
  if (!NAME.test(input)) throw unknownOrganism(organism, "not an organism name or taxon id");
  const found = await taxonByName(upstream, input, signal);
  if (found) return resolved(found);
  throw unknownOrganism(organism, `NCBI Taxonomy knows no organism named "${input}"`);
}

/** The error for an organism filter NCBI would silently drop: the gene ESearch reported it not found. */
export function organismNotApplied(organism: string, warnings: string[]): ToolError | undefined {
  const dropped = warnings.find((w) => /NotFound/.test(w) && /txid\d+/i.test(w));
  return dropped ? unknownOrganism(organism, `NCBI Gene ignored the organism filter (${dropped})`) : undefined;
}

function resolved(taxonId: string): ResolvedOrganism {
  return { taxonId, filter: `txid${taxonId}[Organism:exp]` };
}

async function taxonByName(upstream: ServiceUpstream, name: string, signal?: AbortSignal): Promise<string | undefined> {
  const response = await upstream.request(eutilsRequest({
    path: "/esearch.fcgi",
    params: { db: "taxonomy", term: `"${name}"[All Names]`, retmax: 1 },
    ttlMs: RECORD_TTL_MS,
    signal,
  }));
  return parseComplete(response, "eSearchResult", parseESearch).ids[0];
}

async function taxonExists(upstream: ServiceUpstream, taxonId: string, signal?: AbortSignal): Promise<boolean> {
  const response = await upstream.request(eutilsRequest({
    path: "/esummary.fcgi",
    params: { db: "taxonomy", id: taxonId, version: "2.0" },
    ttlMs: RECORD_TTL_MS,
    signal,
  }));
  // An unknown id comes back as a per-uid <error>; a body without eSummaryResult or with a fatal <ERROR>
  // is an NCBI fault, not proof that the organism does not exist.
  const doc = parseNcbiXml(response.text(), response.url, ["DocumentSummary"]);
  const docs = eSummaryDocuments(doc, response.url, () => "Retry shortly; NCBI may be degraded.");
  return docs.some((d) => text(d["@_uid"]) === taxonId && !text(d.error) && Boolean(text(d.ScientificName)));
}

function unknownOrganism(organism: string, why: string): ToolError {
  return new ToolError(
    "INVALID_INPUT",
    `Invalid input 'organism': ${why}.`,
    `Pass organism as ${ORGANISM_FORMS}, or omit it to search all organisms.`,
    { invalidInput: { field: "organism", value: organism } },
  );
}
