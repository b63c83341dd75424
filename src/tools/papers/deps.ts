/**
 * What the papers toolset depends on beyond its ToolContext, injected when the runtime is built
 * (`createRuntime({ provide: [provide(PAPERS_DEPS, { resolveDns })] })`); production injects nothing and
 * gets the defaults.
 */
import { type SharedKey, sharedKey, type SharedStore } from "../../core/shared_key.ts";
import type { PdfExtractor } from "../../sources/pdf/types.ts";
import { type ResolveDns, systemResolveDns } from "../../sources/publisher/guard.ts";

export interface PapersDeps {
  /** PDF text extraction; default the runtime's worker-backed extractor. */
  extractor?: PdfExtractor;
  /** DNS lookup for the publisher-link SSRF guard; default Deno.resolveDns. */
  resolveDns?: ResolveDns;
  /** Lets publisher links reach loopback (a local mock upstream). Never set in production. */
  allowLoopbackPublisher?: boolean;
}

export const PAPERS_DEPS: SharedKey<PapersDeps> = sharedKey<PapersDeps>("papers:deps");

/** The injected dependencies with production defaults filled in (the extractor is resolved by its user). */
export function papersDeps(ctx: SharedStore): PapersDeps & { resolveDns: ResolveDns; allowLoopbackPublisher: boolean } {
  const given = ctx.shared(PAPERS_DEPS, () => ({}));
  return {
    ...given,
    resolveDns: given.resolveDns ?? systemResolveDns,
    allowLoopbackPublisher: given.allowLoopbackPublisher === true,
  };
}
