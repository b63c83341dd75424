/**
 * Explicit test seams of the papers toolset, read from the runtime's shared map. Production never sets
 * them; a test installs them before the first call with
 * `runtime.shared(PAPERS_SEAMS, () => ({ extractor, resolveDns, allowLoopbackPublisher: true }))`.
 */
import type { ToolContext } from "../tool_def.ts";
import type { PdfExtractor } from "../../sources/pdf/types.ts";
import type { ResolveDns } from "../../sources/publisher/guard.ts";

export const PAPERS_SEAMS = "papers:seams";

export interface PapersSeams {
  /** Replaces the worker-backed PDF extractor. */
  extractor?: PdfExtractor;
  /** Replaces Deno.resolveDns for the publisher SSRF guard. */
  resolveDns?: ResolveDns;
  /** Lets publisher links reach loopback (a local mock upstream). Never set outside tests. */
  allowLoopbackPublisher?: boolean;
}

export function papersSeams(ctx: Pick<ToolContext, "shared">): PapersSeams {
  return ctx.shared<PapersSeams>(PAPERS_SEAMS, () => ({}));
}
