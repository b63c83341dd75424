/**
 * Europe PMC REST API (search over PubMed, PMC, preprints, patents and Agricola; open-access full text
 * as JATS XML). It needs no key and publishes no fixed rate; EMBL-EBI asks clients to stay modest and
 * seed 004 allows at most 5 requests/s per host, so requests are spaced 200 ms apart (plus the scheduler's
 * margin) with a few in flight. Unknown full texts answer 404.
 */
import type { UpstreamDef } from "../upstream/def.ts";

export const europepmc: UpstreamDef = {
  name: "europepmc",
  title: "Europe PMC",
  baseUrl: {
    env: "EUROPEPMC_BASE_URL",
    default: "https://www.ebi.ac.uk/europepmc/webservices/rest",
    description: "Europe PMC REST API base URL",
    mockPrefix: "europepmc",
  },
  // europepmc.org: the PDF renderings of PMC copies that records link (save_paper fetches them as links).
  hosts: ["www.ebi.ac.uk", "europepmc.org"],
  rate: { intervalMs: 200 },
  concurrency: 3,
  maxRetries: 3,
  ttlMs: 60 * 60_000,
  backoff: { baseMs: 1000, maxMs: 30_000 },
  recoveryHint: "Retry shortly; Europe PMC may be busy or under maintenance.",
};
