/** Every mock route, in matching order. */
import { ncbiRoutes } from "./ncbi.ts";
import { papersRoutes } from "./papers.ts";
import { pubchemRoutes } from "./pubchem.ts";
import type { MockRoute } from "./types.ts";

export const ALL_ROUTES: readonly MockRoute[] = [...ncbiRoutes, ...pubchemRoutes, ...papersRoutes];
