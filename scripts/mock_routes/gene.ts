/** Mock upstream routes for NCBI Gene (ESearch/ESummary/EFetch/ELink db=gene), from fixtures/. */
import type { MockRoute } from "./types.ts";

export const geneRoutes: MockRoute[] = [];
