/**
 * The upstream table: one {@link UpstreamDef} per service. Config reads each base-URL variable from it,
 * the permission sets and the mock upstream are tested against it, and the runtime hands it to the
 * pipeline (src/upstreams/mod.ts, which re-exports this file). Adding an upstream: one file in this
 * folder and one line here (docs/extending.md). Apart from the pipeline, so that the configuration and
 * the preflight read it at start without loading the pipeline's modules.
 */
import { type BaseUrlVar, baseUrlVars, type PipelineSettings, type UpstreamDef } from "../upstream/def.ts";
import type { PipelineDeps } from "../upstream/fetch_upstream.ts";
import { resolvePolicies, type UpstreamPolicy } from "../upstream/policies.ts";
import type { Upstream, UpstreamRequest } from "../upstream/types.ts";
import { arxivApi } from "./arxiv_api.ts";
import { arxivWeb } from "./arxiv_web.ts";
import { europepmc } from "./europepmc.ts";
import { crossref, type CrossrefSettings } from "./crossref.ts";
import { ncbiEutils, type NcbiSettings } from "./ncbi_eutils.ts";
import { ncbiIdconv } from "./ncbi_idconv.ts";
import { openalex, type OpenAlexSettings } from "./openalex.ts";
import { publisher } from "./publisher.ts";
import { pubchem } from "./pubchem.ts";

/** Everything the definitions read from the configuration; `Config` satisfies it. */
export interface UpstreamSettings extends PipelineSettings {
  /** NCBI credentials and pacing (API key, e-mail, tool name, delay, retries). */
  ncbi: NcbiSettings;
  /** OpenAlex credentials (API key, mailto). */
  openalex: OpenAlexSettings;
  /** Crossref's polite-pool contact (CROSSREF_MAILTO). */
  crossref: CrossrefSettings;
}

/** The table, keyed by name (each key equals its definition's `name`, which a test checks). */
export const UPSTREAMS_BY_NAME = {
  "ncbi-eutils": ncbiEutils,
  "ncbi-idconv": ncbiIdconv,
  "pubchem": pubchem,
  "arxiv-api": arxivApi,
  "arxiv-web": arxivWeb,
  "openalex": openalex,
  "publisher": publisher,
  "europepmc": europepmc,
  "crossref": crossref,
} satisfies Record<string, UpstreamDef<UpstreamSettings>>;

/** The name of one upstream of the table. */
export type UpstreamName = keyof typeof UPSTREAMS_BY_NAME;

/** Every upstream, in README order. */
export const UPSTREAMS: readonly UpstreamDef<UpstreamSettings>[] = Object.values(UPSTREAMS_BY_NAME);

/** A request to one of the table's upstreams (the name is checked at compile time). */
export type ServiceRequest = UpstreamRequest<UpstreamName>;
/** The pipeline as sources see it: requests name an upstream of the table. */
export type ServiceUpstream = Upstream<UpstreamName>;

/** Every base-URL variable of the table with its key in `Config.baseUrls`, in table order. */
export function baseUrlSettings(): [key: string, variable: BaseUrlVar][] {
  return UPSTREAMS.flatMap((def) => baseUrlVars(def));
}

/** Hosts the confined permission sets grant: the union of every definition's hosts. */
export function upstreamHosts(): string[] {
  return [...new Set(UPSTREAMS.flatMap((def) => def.hosts))];
}

/** The table resolved against a configuration (what the pipeline runs on), keyed by name. */
export function upstreamPolicies(settings: UpstreamSettings): Record<UpstreamName, UpstreamPolicy> {
  return resolvePolicies(UPSTREAMS, settings) as Record<UpstreamName, UpstreamPolicy>;
}

export type UpstreamDeps = Omit<PipelineDeps<UpstreamSettings>, "upstreams" | "product"> & {
  /** Product token of the User-Agent; default `science-mcp/<version>`. */
  product?: string;
};
