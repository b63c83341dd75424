/** Mock upstream routes for the papers sources, replaying recorded bodies from fixtures/. */
import type { MockRoute } from "./types.ts";

export const papersRoutes: MockRoute[] = [];
