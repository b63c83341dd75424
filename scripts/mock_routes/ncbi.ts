/** Mock upstream routes for the ncbi sources, replaying recorded bodies from fixtures/. */
import type { MockRoute } from "./types.ts";

export const ncbiRoutes: MockRoute[] = [];
