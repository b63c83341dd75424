/**
 * The runtime's upstream, built when it is first needed. The pipeline (scheduler, cache, retries, shared
 * budget: ~20 modules) is most of what a server evaluates before its first tools/list, and a client that
 * lists the tools need not pay for it. A process in which src/upstreams/mod.ts is already evaluated (the
 * public API, a test, a bundle) builds it at once, as before; otherwise `request()` imports it on first use,
 * and the tool, resource and prompt paths await {@link upstreamReady} before a handler runs, so a handler
 * never sees the pipeline missing.
 */
import { onDemand } from "../core/on_demand.ts";
import type { UpstreamRequest } from "../upstream/types.ts";
import type { ServiceUpstream, UpstreamDeps, UpstreamName } from "./table.ts";

type Factory = (deps: UpstreamDeps) => ServiceUpstream;

let factory: Factory | undefined;

/** Called by src/upstreams/mod.ts when it is evaluated: later runtimes build their pipeline at once. */
export function providePipeline(make: Factory): void {
  factory = make;
}

/** A pipeline being built on first use; `ready()` resolves once it is. */
interface LazyUpstream extends ServiceUpstream {
  /** Undefined once it is built (nothing to wait for), else the build. */
  ready(): Promise<void> | undefined;
}

/** The runtime's upstream: the pipeline itself when its module is loaded, else one built on first use. */
export function serviceUpstream(deps: UpstreamDeps): ServiceUpstream {
  if (factory) return factory(deps);
  let real: ServiceUpstream | undefined;
  let loading: Promise<ServiceUpstream> | undefined;
  let closed = false;
  const load = () =>
    loading ??= onDemand<{ createUpstream: Factory }>("upstreams/mod.ts").then(({ createUpstream }) => {
      real ??= createUpstream(deps);
      if (closed) real.close?.();
      return real;
    });
  // A failed import is tried again by the next call, as a toolset's is (src/lazy_catalog.ts).
  const loaded = () => load().catch((error) => Promise.reject((loading = undefined, error)));
  const missing = (what: string) =>
    new Error(`upstream.${what}() before the pipeline was loaded: await upstreamReady(runtime.upstream) first`);
  const lazy: LazyUpstream = {
    request: (request: UpstreamRequest<UpstreamName>) =>
      real ? real.request(request) : loaded().then((pipeline) => pipeline.request(request)),
    describe(request) {
      if (!real) throw missing("describe");
      return real.describe(request);
    },
    status() {
      if (!real) throw missing("status");
      return real.status();
    },
    recoveryHint: (upstream, situation) => real?.recoveryHint?.(upstream, situation),
    close() {
      closed = true;
      real?.close?.();
    },
    ready: () => real ? undefined : loaded().then(() => {}),
  };
  return lazy;
}

/** Resolves once `upstream` can serve every method (at once for a pipeline that is built). */
export function upstreamReady(upstream: ServiceUpstream): Promise<void> | undefined {
  return (upstream as Partial<LazyUpstream>).ready?.();
}
