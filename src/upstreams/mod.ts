/**
 * The upstream table (src/upstreams/table.ts) and the pipeline over it. The server imports this module on
 * its first upstream request (src/upstreams/lazy.ts); whoever imports it first makes every later runtime
 * build its pipeline at once.
 */
import { SERVER_NAME, VERSION } from "../core/version.ts";
import { createPipeline } from "../upstream/fetch_upstream.ts";
import { providePipeline } from "./lazy.ts";
import { type ServiceUpstream, type UpstreamDeps, UPSTREAMS } from "./table.ts";

export * from "./table.ts";

/** The pipeline over the whole table (what the runtime builds; tests may pass their own policies). */
export function createUpstream(deps: UpstreamDeps): ServiceUpstream {
  return createPipeline({ ...deps, upstreams: UPSTREAMS, product: deps.product ?? `${SERVER_NAME}/${VERSION}` });
}

providePipeline(createUpstream);
