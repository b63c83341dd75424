/** Mock upstream routes for the pubchem sources, replaying recorded bodies from fixtures/. */
import type { MockRoute } from "./types.ts";

export const pubchemRoutes: MockRoute[] = [];
