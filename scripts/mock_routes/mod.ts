/** Every mock route, in matching order. */
import { europepmcRoutes } from "./europepmc.ts";
import { citationRoutes } from "./citations.ts";
import { geneRoutes } from "./gene.ts";
import { ncbiRoutes } from "./ncbi.ts";
import { papersRoutes } from "./papers.ts";
import { pubchemRoutes } from "./pubchem.ts";
import { researchRoutes } from "./research.ts";
import type { MockRoute } from "./types.ts";

export const ALL_ROUTES: readonly MockRoute[] = [
  ...citationRoutes,
  ...researchRoutes,
  ...geneRoutes,
  ...ncbiRoutes,
  ...pubchemRoutes,
  ...papersRoutes,
  ...europepmcRoutes,
];
