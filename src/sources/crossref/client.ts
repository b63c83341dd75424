/**
 * Crossref requests on the `crossref` upstream (the pipeline adds `mailto`). A DOI Crossref does not
 * know is ENTITY_NOT_FOUND, so callers can tell "no such DOI" from a failure.
 */
import { ToolError, UpstreamError } from "../../core/errors.ts";
import type { SourceContext } from "../../context.ts";
import { parseCrossrefWork } from "./parse_work.ts";
import type { CrossrefWork } from "./types.ts";

export type CrossrefCtx = Pick<SourceContext, "upstream" | "signal">;

/** One work by DOI (`10.5555/12345678`, case-insensitive). */
export async function crossrefWork(ctx: CrossrefCtx, doi: string): Promise<CrossrefWork> {
  try {
    const response = await ctx.upstream.request({
      upstream: "crossref",
      path: `/works/${encodeURIComponent(doi)}`,
      accept: "application/json",
      signal: ctx.signal,
    });
    return parseCrossrefWork(response.text(), response.url);
  } catch (error) {
    if (error instanceof UpstreamError && error.kind === "http" && error.status === 404) {
      throw new ToolError("ENTITY_NOT_FOUND", `Crossref has no DOI ${doi}.`, "Check the DOI.", { cause: error });
    }
    throw error;
  }
}
