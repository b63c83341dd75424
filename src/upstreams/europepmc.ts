/**
 * Europe PMC REST API (search over PubMed, PMC, preprints, patents and Agricola; open-access full text
 * as JATS XML). It needs no key and publishes no fixed rate; EMBL-EBI asks clients to stay modest, so
 * requests are spaced 100 ms apart (10/s) with a few in flight. Unknown full texts answer 404.
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
  rate: { intervalMs: 100 },
  concurrency: 3,
  maxRetries: 3,
  ttlMs: 60 * 60_000,
  backoff: { baseMs: 1000, maxMs: 30_000 },
  recoveryHint: "Retry shortly; Europe PMC may be busy or under maintenance.",
};
